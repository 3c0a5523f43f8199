"""The records of the human loop: the drafts shown to annotators and their annotations.

- `Draft`: one sample's chapter drafts, a row of WORK/drafts/samples.jsonl
  (``{"id", "subset", "book_id", "chapters": [{"chapter_index", "heading",
  "chapter_sha256", "draft", "drafter", "model", "prompt_version", "outcome",
  "fallback_reason"}]}``);
- `Annotation`: one pulled annotation, a row of WORK/annotations/annotations.jsonl.

Both are read and written through `lengthwise.store.WorkStore` only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from lengthwise.errors import InputFileError
from lengthwise.storage import canonical_hash

ORIGIN_HUMAN = "human"


@dataclass(frozen=True)
class ChapterDraft:
    chapter_index: int  # 0-based index of the chapter in its book
    heading: str
    text: str
    drafter: str  # "llm" or "extractive"
    model: str = ""
    fallback_reason: str | None = None  # why an extractive draft stands in for the LLM's
    chapter_sha256: str = ""
    prompt_version: str = ""
    outcome: str = ""  # the drafter's outcome ("ok", "blocked", ...)

    def to_row(self) -> dict[str, Any]:
        return {
            "chapter_index": self.chapter_index,
            "heading": self.heading,
            "chapter_sha256": self.chapter_sha256,
            "draft": self.text,
            "drafter": self.drafter,
            "model": self.model,
            "prompt_version": self.prompt_version,
            "outcome": self.outcome,
            "fallback_reason": self.fallback_reason,
        }

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> ChapterDraft:
        # Older drafts files call the text "text"; a row with neither shows an empty draft.
        text = row["draft"] if "draft" in row else row.get("text")
        return cls(
            chapter_index=int(row["chapter_index"]),
            heading=str(row.get("heading") or ""),
            text=str(text or ""),
            drafter=str(row.get("drafter") or "unknown"),
            model=str(row.get("model") or ""),
            fallback_reason=row.get("fallback_reason"),
            chapter_sha256=str(row.get("chapter_sha256") or ""),
            prompt_version=str(row.get("prompt_version") or ""),
            outcome=str(row.get("outcome") or ""),
        )


@dataclass(frozen=True)
class Draft:
    """One sample's chapters in order, each with the draft shown to annotators."""

    sample_id: str
    chapters: tuple[ChapterDraft, ...]
    subset: str = ""
    book_id: str = ""

    @property
    def texts(self) -> list[str]:
        return [c.text for c in self.chapters]

    @property
    def merged(self) -> str:
        """The drafts in chapter order, one paragraph each: the annotator's starting point."""
        return "\n\n".join(c.text.strip() for c in self.chapters if c.text.strip())

    @property
    def sha256(self) -> str:
        """Changes whenever any chapter's draft text, heading or drafter changes."""
        return canonical_hash(
            [[c.chapter_index, c.heading, c.text, c.drafter, c.model] for c in self.chapters]
        )

    def to_row(self) -> dict[str, Any]:
        return {
            "id": self.sample_id,
            "subset": self.subset,
            "book_id": self.book_id,
            "chapters": [c.to_row() for c in self.chapters],
        }

    @classmethod
    def from_row(cls, row: Mapping[str, Any], where: str) -> Draft:
        """A draft from a JSONL row; `where` names the file and line in errors."""
        try:
            return cls(
                sample_id=str(row["id"]),
                chapters=tuple(ChapterDraft.from_row(c) for c in row["chapters"]),
                subset=str(row.get("subset") or ""),
                book_id=str(row.get("book_id") or ""),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise InputFileError(f"{where}: not a drafts row (missing or invalid {exc})") from None


@dataclass
class Annotation:
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
    def from_dict(cls, row: Mapping[str, Any]) -> Annotation:
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
