"""WORK/annotations/report.json as a typed record: progress, flags, agreement, annotators."""

from __future__ import annotations

from dataclasses import dataclass, field

from lengthwise.json_records import JsonRecord


@dataclass
class SubsetProgress:
    samples: int = 0
    annotated: int = 0  # samples with at least one usable annotation
    complete: int = 0  # samples with as many usable annotations as wanted
    final: int = 0  # samples with a final summary
    final_flags: dict[str, int] = field(default_factory=dict)  # quality flags of the finals
    synthetic: int = 0  # finals no person wrote (the synthetic demo references)
    agreement_samples: int = 0
    agreement_mean: float | None = None  # ROUGE-L F1 between annotators


@dataclass
class AnnotatorFigures:
    submitted: int = 0
    cancelled: int = 0
    by_subset: dict[str, int] = field(default_factory=dict)
    flags: dict[str, int] = field(default_factory=dict)
    mean_copied_share: float | None = None


@dataclass(kw_only=True)
class ReviewReport(JsonRecord):
    stage: str = "annotate"
    annotators_per_sample: int
    max_copied_share: float
    annotations: int
    flags: dict[str, int]  # over all annotations
    subsets: dict[str, SubsetProgress]
    annotators: dict[str, AnnotatorFigures]
