"""Where the human reference summaries come from: one small function to change.

The annotation stage (`lengthwise annotate pull`) writes the finished summaries back
next to the samples. The work store (`lengthwise.store`) decides
where: ``WORK/samples_annotated/<subset>.parquet`` when present, otherwise a
``summary`` column in ``WORK/samples/<subset>.parquet``. Every other column of such
a row that the build did not write is annotation metadata; it is released as JSON
after user names (annotator/reviewer columns, and e-mail addresses anywhere) are
replaced by stable pseudonyms. LLM drafts (synopsis columns) are not released.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lengthwise.records import SAMPLE_COLUMNS, Sample
from lengthwise.store import WorkStore
from lengthwise.workdir import WorkDir

# Columns written by `lengthwise build` (lengthwise.records.SAMPLE_COLUMNS).
BUILD_COLUMNS = frozenset(SAMPLE_COLUMNS)
# LLM drafts are working material for annotators, not references: never released.
_WORKING_MATERIAL = re.compile(r"draft|synops", re.IGNORECASE)
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


@dataclass(frozen=True)
class Annotation:
    summary: str
    metadata: dict[str, Any] = field(default_factory=dict)


def annotated_samples_path(work_root: Path, subset: str) -> Path:
    return WorkDir(work_root).subset_annotated(subset)


def summaries_source(work_root: Path, subset: str) -> Path:
    """The file a subset's summaries are read from."""
    work = WorkDir(work_root)
    return WorkStore(work).samples_file(subset) or work.subset_samples(subset)


def load_annotations(
    work_root: Path, subset: str, samples: Sequence[Sample]
) -> dict[str, Annotation]:
    """Sample id -> human annotation, for the samples of `subset` that have a summary."""
    store = WorkStore(WorkDir(work_root))
    annotated = store.samples_file(subset, annotated=True) is not None
    rows = store.samples(subset, annotated=True) if annotated else samples
    found: dict[str, Annotation] = {}
    for row in rows:
        if row.summary is None:
            continue
        metadata = {
            key: _pseudonymise(value, _names_people(key))
            for key, value in row.extra.items()
            if key != "summary" and value is not None and not _WORKING_MATERIAL.search(key)
        }
        found[row.id] = Annotation(summary=row.summary.strip(), metadata=metadata)
    return found


def _names_people(key: str) -> bool:
    """Columns such as annotators, summary_annotator, reviewer hold user names."""
    return "annotator" in key or "reviewer" in key


def _pseudonymise(value: Any, whole_strings: bool = False) -> Any:
    """Replace e-mail addresses (Label Studio user names) by stable pseudonyms.

    With `whole_strings`, every string is a user name and is replaced as a whole.
    """
    if isinstance(value, str):
        if whole_strings and value:
            return _pseudonym(value)
        return _EMAIL.sub(lambda m: _pseudonym(m.group(0)), value)
    if isinstance(value, list):
        return [_pseudonymise(v, whole_strings) for v in value]
    if isinstance(value, dict):
        return {k: _pseudonymise(v, whole_strings or _names_people(k)) for k, v in value.items()}
    return value


def _pseudonym(name: str) -> str:
    return "annotator-" + hashlib.sha256(name.strip().lower().encode("utf-8")).hexdigest()[:8]


def synthetic_references(rows: Sequence[Mapping[str, Any]]) -> int:
    """Released rows whose summary no person wrote (the demo's synthetic references)."""
    return reference_origins(rows).counts.get(ORIGIN_SYNTHETIC, 0)


# Where a released reference came from, read from its own annotation metadata.
ORIGIN_LABEL_STUDIO = "label studio"
ORIGIN_OVERRIDES = "overrides file"
ORIGIN_IMPORTED = "imported"
ORIGIN_SYNTHETIC = "synthetic demo"
ORIGIN_UNRECORDED = "unrecorded"  # a summary with no annotation metadata at all
IMPORTED_SOURCE = "import"  # `summary_source` of a summary brought in by `annotate import`


@dataclass
class ReferenceOrigins:
    """Released references counted by origin, with who wrote and who reviewed them."""

    counts: dict[str, int] = field(default_factory=dict)
    annotators: set[str] = field(default_factory=set)  # pseudonyms, Label Studio only
    reviewers: set[str] = field(default_factory=set)

    def add(self, annotation: Mapping[str, Any]) -> None:
        """Count one released summary from its `annotation` metadata."""
        origin = reference_origin_of(annotation)
        self.counts[origin] = self.counts.get(origin, 0) + 1
        if origin == ORIGIN_LABEL_STUDIO:
            writer = annotation.get("summary_annotator")
            names = [writer] if isinstance(writer, str) and writer else []
            names = names or [a for a in annotation.get("annotators") or [] if isinstance(a, str)]
            self.annotators.update(names)
        reviewer = annotation.get("reviewer")
        if isinstance(reviewer, str) and reviewer:
            self.reviewers.add(reviewer)


def reference_origin_of(annotation: Mapping[str, Any]) -> str:
    """One summary's origin: the synthetic demo, `annotate import`, a reviewer's
    overrides file, a Label Studio annotation, or unrecorded."""
    origin, source = annotation.get("reference_origin"), annotation.get("summary_source")
    if source == IMPORTED_SOURCE or origin == ORIGIN_IMPORTED:
        return ORIGIN_IMPORTED
    if origin not in (None, "human"):
        return ORIGIN_SYNTHETIC
    if source == "override:text":
        return ORIGIN_OVERRIDES
    if source in ("rule", "override:annotation") or annotation.get("annotators"):
        return ORIGIN_LABEL_STUDIO
    return ORIGIN_UNRECORDED


def reference_origins(rows: Sequence[Mapping[str, Any]]) -> ReferenceOrigins:
    """Count the released rows' summaries by origin (rows without a summary are skipped)."""
    found = ReferenceOrigins()
    for row in rows:
        if row.get("summary") is None:
            continue
        raw = row.get("annotation")
        found.add(json.loads(raw) if isinstance(raw, str) else {})
    return found
