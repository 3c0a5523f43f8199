"""Draft records and WORK/drafts/chapters.jsonl, the append-only log of finished drafts.

Each finished draft is appended as one JSON line and fsync'd before the drafter moves
on, so a crash loses at most the draft being written. A crash in the middle of a line
leaves a last line without a newline: opening the log ignores it, the next append cuts
it off (lengthwise.jsonl) and that chapter is drafted again; with the request cache the call itself
is not repeated. When a key appears more than once (a retried error), the last line wins.

Each line carries `record_sha256`, the hash of its record (its time aside): a line
edited or damaged since it was appended no longer matches it, and opening the log
discards it (logged, and removed from the file), so that chapter is drafted again
rather than an unknown text reaching the samples. Lines written before the check
existed have none and are taken as they are.
"""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from lengthwise.errors import InputFileError
from lengthwise.jsonl import JsonlLog, write_jsonl
from lengthwise.storage import canonical_hash

log = logging.getLogger(__name__)

# Outcomes after which a chapter has no LLM draft (an extractive one stands in).
FAILED_OUTCOMES = frozenset({"blocked", "over_length", "error"})
# Outcomes worth retrying on the next run (a transient failure after all retries).
RETRY_OUTCOMES = frozenset({"error"})


def utc_now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass
class DraftRecord:
    """One chapter's draft by one drafter (see `drafter_key`)."""

    chapter_sha256: str
    book_id: str
    chapter_index: int
    heading: str
    language: str
    drafter: str  # "llm" or "extractive"
    drafter_key: str  # identity of the drafter: model, endpoint, decoding, prompt versions
    model: str
    prompt_version: str
    outcome: str  # an lengthwise.llm.types.Outcome; "ok" for extractive drafts
    text: str
    base_url: str | None = None
    revision: str | None = None
    parts: int = 1
    usage: dict[str, int] = field(default_factory=dict)  # prompt_tokens, completion_tokens
    cached_parts: int = 0  # parts answered from the request cache
    error: str | None = None
    created_at: str = field(default_factory=utc_now)

    @property
    def key(self) -> str:
        return draft_key(self.chapter_sha256, self.drafter_key)

    def to_dict(self) -> dict[str, Any]:
        fields = asdict(self)
        return {"key": self.key, **fields, CHECK_FIELD: record_sha256(fields)}

    @classmethod
    def from_dict(cls, row: dict[str, Any]) -> DraftRecord:
        data = {k: v for k, v in row.items() if k not in ("key", CHECK_FIELD)}
        return cls(**data)


# The line's own check: the sha256 of its record's fields, the creation time aside (two
# runs drafting the same chapter write the same check).
CHECK_FIELD = "record_sha256"


def record_sha256(fields: dict[str, Any]) -> str:
    """The check of a record's fields (as `asdict` gives them)."""
    return canonical_hash({k: v for k, v in fields.items() if k != "created_at"})


def _check_fails(row: dict[str, Any], record: DraftRecord) -> bool:
    """The line holds a check that its record no longer matches (edited or damaged)."""
    return CHECK_FIELD in row and row[CHECK_FIELD] != record_sha256(asdict(record))


def draft_key(chapter_sha256: str, drafter_key: str) -> str:
    return f"{chapter_sha256}:{drafter_key}"


class DraftLog:
    """Append-only JSONL of draft records; safe to append from several threads."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._log = JsonlLog(path, fsync=True)
        self._records = self._load()

    @property
    def records(self) -> dict[str, DraftRecord]:
        return dict(self._records)

    def get(self, key: str) -> DraftRecord | None:
        return self._records.get(key)

    def append(self, record: DraftRecord) -> None:
        self._log.append(record.to_dict())
        self._records[record.key] = record

    def _load(self) -> dict[str, DraftRecord]:
        records: dict[str, DraftRecord] = {}
        kept: list[dict[str, Any]] = []
        discarded = 0
        for number, row in self._log.read():
            try:
                record = DraftRecord.from_dict(row)
            except (TypeError, AttributeError) as exc:
                raise InputFileError(f"{self.path}:{number}: not a draft record: {exc}") from None
            if _check_fails(row, record):
                log.warning(
                    "%s:%d: draft of %s chapter %d does not match the sha256 it was stored "
                    "with; discarded, the chapter is drafted again",
                    self.path,
                    number,
                    record.book_id,
                    record.chapter_index,
                )
                discarded += 1
                continue
            records[record.key] = record
            kept.append(row)
        if discarded:  # the log keeps only lines that verify (opened under the stage lock)
            write_jsonl(self.path, kept)
        return records
