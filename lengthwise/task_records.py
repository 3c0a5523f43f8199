"""Task instances: the records of the task families other than summarization.

A summarization benchmark is one task; the same corpus yields ordering, recall,
per-section summaries, question answering by position, needles in real documents
and incremental-context series (issue "task families"). Every family writes
`TaskInstance` rows: one record type, one Arrow schema, one parquet file per task
and length (`WORK/tasks/<task>/<length>.parquet`), released as the config
`<task>-<length>`.

Fields every family fills the same way are columns. `answers` always holds the
reference answers the family's scorer compares an output with, in the form the
family documents (see `FAMILY_ANSWERS`). Family-specific facts (the shown order of
segments, a question's kind, ...) go in `details`, a flat mapping documented by the
family's builder module; they are stored as one JSON string column so that every
family shares the schema.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from lengthwise.errors import InputFileError

Family = Literal[
    "ordering",  # Ada-LEval TSort: shuffled segments of contiguous chapters
    "synopsis-ordering",  # ETHIC: shuffled per-chunk synopses of the whole context
    "recall",  # ETHIC: every character name in the context
    "sections",  # ETHIC: one summary per section of the context
    "qa",  # questions from the beginning/middle/end thirds, human-validated
    "needles",  # SWiM: one answering document among distractors, at a depth
    "incremental",  # one book prefix grown in fixed token steps
]
FAMILIES: tuple[str, ...] = (
    "ordering",
    "synopsis-ordering",
    "recall",
    "sections",
    "qa",
    "needles",
    "incremental",
)

# What `answers` holds for each family (the scorer's reference).
FAMILY_ANSWERS: dict[str, str] = {
    "ordering": "the original order: answers[i] is the label of the i-th segment in reading order",
    "synopsis-ordering": "the original order of the shown synopses, as labels",
    "recall": "every character name in the context, deduplicated (one canonical name per person)",
    "sections": "one reference summary per section, in section order",
    "qa": "the accepted answers (empty for an unanswerable question)",
    "needles": "the accepted answers to the question",
    "incremental": "empty: the series measures what summaries gain as the context grows",
}

DetailValue = str | int | float | bool | None | list[str] | list[int] | list[float]


@dataclass(frozen=True)
class TaskInstance:
    """One instance of one task at one length, exactly as a model sees its context."""

    id: str  # unique within the task: "<task>:<length>:<book or document id>:<n>"
    task: str  # the [[tasks]] entry's name
    family: str  # one of FAMILIES
    length: str  # the length's name ("L", "8k", ...)
    language: str  # "zh" or "en"
    book_id: str  # the source book ("" when the documents come from a folder)
    context: str  # the long text given to the model
    question: str  # the question or instruction specific to this instance ("" when none)
    answers: list[str]  # see FAMILY_ANSWERS
    tokens: int  # of `context`, in `tokenizer`, recounted independently after building
    tokenizer: str
    target: int  # the length's target, lower and upper bounds in tokens
    lower: int
    upper: int
    # Where the evidence sits in the context, 0.0 (start) .. 1.0 (end); None when the
    # family has no single evidence position (ordering, recall, sections).
    depth: float | None = None
    # Share of the context window filled with distractors (needles' fill series), else None.
    fill: float | None = None
    source_ids: list[str] = field(default_factory=list)  # chapter sha256s or document ids used
    details: dict[str, DetailValue] = field(default_factory=dict)

    def to_row(self) -> dict[str, Any]:
        row: dict[str, Any] = {name: getattr(self, name) for name in TASK_COLUMNS}
        row["details"] = json.dumps(self.details, ensure_ascii=False, sort_keys=True)
        return row

    @classmethod
    def from_row(cls, row: Mapping[str, Any], where: str) -> TaskInstance:
        """An instance from a parquet/JSON row; `where` names the file and row in errors."""
        missing = [name for name in TASK_COLUMNS if name not in row]
        if missing:
            raise InputFileError(f"{where}: missing columns {missing}")
        if row["family"] not in FAMILIES:
            raise InputFileError(f"{where}: family: unknown family {row['family']!r}")
        values = {name: row[name] for name in TASK_COLUMNS}
        details = values["details"]
        try:
            values["details"] = json.loads(details) if isinstance(details, str) else dict(details)
        except (json.JSONDecodeError, TypeError, ValueError) as exc:
            raise InputFileError(f"{where}: details: not a JSON object: {exc}") from None
        values["answers"] = list(values["answers"] or [])
        values["source_ids"] = list(values["source_ids"] or [])
        return cls(**values)


TASK_COLUMNS: tuple[str, ...] = (
    "id",
    "task",
    "family",
    "length",
    "language",
    "book_id",
    "context",
    "question",
    "answers",
    "tokens",
    "tokenizer",
    "target",
    "lower",
    "upper",
    "depth",
    "fill",
    "source_ids",
    "details",
)


def task_arrow_schema() -> Any:
    """The parquet schema of task instances (`pyarrow.Schema`), shared by every family."""
    import pyarrow as pa

    strings = pa.list_(pa.string())
    return pa.schema(
        [
            ("id", pa.string()),
            ("task", pa.string()),
            ("family", pa.string()),
            ("length", pa.string()),
            ("language", pa.string()),
            ("book_id", pa.string()),
            ("context", pa.string()),
            ("question", pa.string()),
            ("answers", strings),
            ("tokens", pa.int64()),
            ("tokenizer", pa.string()),
            ("target", pa.int64()),
            ("lower", pa.int64()),
            ("upper", pa.int64()),
            ("depth", pa.float64()),
            ("fill", pa.float64()),
            ("source_ids", strings),
            ("details", pa.string()),
        ]
    )


def release_config_name(task: str, length: str) -> str:
    """The release config (and Hub config) of one task at one length."""
    return f"{task}-{length}"
