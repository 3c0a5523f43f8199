"""One pulled annotation, as stored in WORK/annotations/annotations.jsonl."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

ORIGIN_HUMAN = "human"


@dataclass
class AnnotationRecord:
    """A human annotation of one sample, with the quality checks run on it at pull time.

    `updated_at` (ISO 8601, UTC, from Label Studio) orders versions of one annotation:
    a pull never replaces a stored row with an older version of it.
    """

    annotation_id: int
    task_id: int
    sample_id: str
    subset: str
    language: str
    limit: int
    annotator_id: int | None
    annotator: str  # e-mail address, or "user:<id>" when the user list was unavailable
    created_at: str
    updated_at: str
    was_cancelled: bool
    summary: str
    choices: list[str] = field(default_factory=list)
    comment: str = ""
    lead_time: float | None = None
    drafts_sha256: str = ""  # the drafts the annotator saw (task data at pull time)
    flags: list[str] = field(default_factory=list)
    units: int = 0
    copied_share: float | None = None
    commentary_hits: list[str] = field(default_factory=list)
    in_label_studio: bool = True  # False once the annotation is gone from the server
    pulled_at: str = ""
    unique_id: str = ""  # Label Studio's uuid of the annotation: stable across edits
    # Who wrote the summary: a person (Label Studio) or, for the demo corpus only,
    # "synthetic reference (demo)" (lengthwise.annotation.demo_references).
    origin: str = ORIGIN_HUMAN

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, row: dict[str, Any]) -> AnnotationRecord:
        missing = [name for name in _REQUIRED if name not in row]
        if missing:
            raise ValueError(f"missing keys {missing}")
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in row.items() if k in known})

    @property
    def usable(self) -> bool:
        """A candidate for the final summary: submitted, not cancelled, not empty."""
        return not self.was_cancelled and bool(self.summary.strip())


_REQUIRED = (
    "annotation_id",
    "task_id",
    "sample_id",
    "subset",
    "language",
    "limit",
    "annotator_id",
    "annotator",
    "created_at",
    "updated_at",
    "was_cancelled",
    "summary",
)
