"""Annotation figures per subset, read from the annotated samples' columns.

`lengthwise annotate` (finalise) writes per sample: `agreement` (mean ROUGE-L F1 of the
chosen summary against the other annotators'), `copied_share` (share of the summary's
4-grams found in the LLM drafts: 1 - copied_share is how much annotators rewrote),
`summary_source` and `annotation_count`. Before annotation none of these columns
exist and the figures are reported as absent, never as zero.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from lengthwise.records import Sample
from lengthwise.releases.stats.stats_record import Absent, AnnotationPresent
from lengthwise.releases.stats.summary_stats import describe

ABSENT: Absent = {"status": "absent", "reason": "no annotation metadata yet (annotation pending)"}


def _numbers(rows: Sequence[Mapping[str, object]], column: str) -> list[float]:
    return [
        float(value)
        for r in rows
        if isinstance(value := r.get(column), int | float) and not isinstance(value, bool)
    ]


def annotation_figures(samples: Sequence[Sample]) -> AnnotationPresent | Absent:
    """Agreement, rewrite shares and summary sources over `samples`, or ABSENT."""
    rows = [s.extra for s in samples]
    columns = {"agreement", "copied_share", "summary_source", "annotation_count"}
    if not rows or not any(column in row for row in rows for column in columns):
        return Absent(status="absent", reason=ABSENT["reason"])
    copied = _numbers(rows, "copied_share")
    sources = Counter(str(r["summary_source"]) for r in rows if r.get("summary_source"))
    return {
        "status": "present",
        "agreement_rouge_l": describe(_numbers(rows, "agreement")),
        "copied_share": describe(copied),
        "rewritten_share": describe([1.0 - c for c in copied]),
        "annotations_per_sample": describe(_numbers(rows, "annotation_count")),
        "summary_sources": dict(sorted(sources.items())),
    }
