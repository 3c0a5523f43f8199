"""The review pass: one final summary per sample, chosen by rule or by a reviewer.

Rule (no Enterprise review queue needed): among the sample's usable annotations
(submitted, not cancelled, not empty) take the one with the fewest quality flags,
then the highest mean ROUGE-L agreement with the other annotators' summaries, then
the lowest annotation id (stable).

A reviewer overrides the rule in a review file, WORK/annotations/review_overrides.jsonl,
one JSON object per line:

    {"sample_id": "…", "annotation_id": 17, "reviewer": "li", "note": "B keeps the duel"}
    {"sample_id": "…", "summary": "the reviewer's own text", "reviewer": "li"}
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from lengthwise.annotation.review.agreement import (
    mean_pairwise,
    mean_with_others,
    pairwise_matrix,
)
from lengthwise.annotation.review.quality import QualityReport
from lengthwise.annotation.review.records import AnnotationRecord
from lengthwise.errors import InputFileError, UserError
from lengthwise.jsonl import numbered_values

SOURCE_NONE = "none"  # no usable annotation yet
SOURCE_RULE = "rule"
SOURCE_OVERRIDE_ANNOTATION = "override:annotation"
SOURCE_OVERRIDE_TEXT = "override:text"
SOURCE_IMPORT = "import"  # `annotate import` (imports.py); the card counts it as imported


@dataclass(frozen=True)
class Override:
    sample_id: str
    annotation_id: int | None = None
    summary: str | None = None
    reviewer: str = ""
    note: str = ""
    where: str = ""  # file:line, for error messages
    source: str = SOURCE_OVERRIDE_TEXT  # of a `summary`: SOURCE_IMPORT for an import


@dataclass
class SampleReview:
    sample_id: str
    subset: str
    candidates: int  # usable annotations
    source: str
    summary: str | None = None
    annotation_id: int | None = None
    annotator: str | None = None
    flags: list[str] = field(default_factory=list)
    copied_share: float | None = None
    units: int | None = None
    agreement: float | None = None  # mean pairwise ROUGE-L F1 between usable summaries
    agreement_with_others: dict[int, float] = field(default_factory=dict)
    reviewer: str | None = None
    note: str | None = None

    def to_dict(self) -> dict[str, Any]:
        row = asdict(self)
        row["agreement_with_others"] = {str(k): v for k, v in self.agreement_with_others.items()}
        return row


def load_overrides(path: Path) -> dict[str, Override]:
    """Reviewer decisions by sample id (a missing file means none); later lines win."""
    if not path.is_file():
        return {}
    overrides: dict[str, Override] = {}
    for number, row in numbered_values(path, comments=True):
        where = f"{path}:{number}"
        if not isinstance(row, dict) or not isinstance(row.get("sample_id"), str):
            raise InputFileError(f"{where}: each line needs a string key 'sample_id'")
        unknown = set(row) - {"sample_id", "annotation_id", "summary", "reviewer", "note"}
        if unknown:
            raise InputFileError(f"{where}: unknown keys {sorted(unknown)}")
        annotation_id, summary = row.get("annotation_id"), row.get("summary")
        if (annotation_id is None) == (summary is None):
            raise InputFileError(f"{where}: give exactly one of 'annotation_id' or 'summary'")
        if annotation_id is not None and not isinstance(annotation_id, int):
            raise InputFileError(f"{where}: 'annotation_id' must be an integer")
        if summary is not None and (not isinstance(summary, str) or not summary.strip()):
            raise InputFileError(f"{where}: 'summary' must be non-empty text")
        overrides[row["sample_id"]] = Override(
            sample_id=row["sample_id"],
            annotation_id=annotation_id,
            summary=summary,
            reviewer=str(row.get("reviewer") or ""),
            note=str(row.get("note") or ""),
            where=where,
        )
    return overrides


def review_sample(
    sample_id: str,
    subset: str,
    language: str,
    records: Sequence[AnnotationRecord],
    override: Override | None = None,
    check: Callable[[str], QualityReport] | None = None,
) -> SampleReview:
    """Choose the final summary of one sample (see module docstring for the rule).

    `check` re-runs the quality checks on a reviewer's own text.
    """
    usable = sorted((r for r in records if r.usable), key=lambda r: r.annotation_id)
    matrix = pairwise_matrix([r.summary for r in usable], language) if len(usable) > 1 else []
    with_others: dict[int, float] = {}
    for index, record in enumerate(usable):
        value = mean_with_others(matrix, index) if matrix else None
        if value is not None:
            with_others[record.annotation_id] = value
    review = SampleReview(
        sample_id=sample_id,
        subset=subset,
        candidates=len(usable),
        source=SOURCE_NONE,
        agreement=mean_pairwise(matrix) if matrix else None,
        agreement_with_others=with_others,
    )
    if override is not None:
        return _apply_override(review, records, override, check)
    if not usable:
        return review
    best = min(
        usable,
        key=lambda r: (len(r.flags), -with_others.get(r.annotation_id, 0.0), r.annotation_id),
    )
    _take(review, best, SOURCE_RULE)
    return review


def _take(review: SampleReview, record: AnnotationRecord, source: str) -> None:
    review.source = source
    review.summary = record.summary
    review.annotation_id = record.annotation_id
    review.annotator = record.annotator
    review.flags = list(record.flags)
    review.copied_share = record.copied_share
    review.units = record.units


def _apply_override(
    review: SampleReview,
    records: Sequence[AnnotationRecord],
    override: Override,
    check: Callable[[str], QualityReport] | None,
) -> SampleReview:
    review.reviewer, review.note = override.reviewer or None, override.note or None
    if override.annotation_id is not None:
        chosen = next((r for r in records if r.annotation_id == override.annotation_id), None)
        if chosen is None:
            ids = sorted(r.annotation_id for r in records)
            raise UserError(
                f"{override.where}: annotation {override.annotation_id} is not an annotation "
                f"of sample {override.sample_id} (its annotations: {ids or 'none'})"
            )
        _take(review, chosen, SOURCE_OVERRIDE_ANNOTATION)
        return review
    text = (override.summary or "").strip()
    review.source = override.source
    review.summary = text
    if override.source == SOURCE_IMPORT:
        review.annotator = "imported"
    else:
        review.annotator = f"reviewer:{override.reviewer}" if override.reviewer else "reviewer"
    if check is not None:
        report = check(text)
        review.flags, review.copied_share, review.units = (
            list(report.flags),
            report.copied_share,
            report.units,
        )
    return review
