"""Draft records and WORK/drafts/chapters.jsonl, the append-only log of finished drafts.

Each finished draft is appended as one JSON line and fsync'd before the drafter moves
on, so a crash loses at most the draft being written. A crash in the middle of a line
leaves a last line without a newline: opening the log ignores it, the next append cuts
it off (lengthwise.jsonl) and that chapter is drafted again; with the request cache the call itself
is not repeated. When a key appears more than once (a retried error), the last line wins.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from lengthwise.errors import InputFileError
from lengthwise.jsonl import JsonlLog

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
        return {"key": self.key, **asdict(self)}

    @classmethod
    def from_dict(cls, row: dict[str, Any]) -> DraftRecord:
        data = {k: v for k, v in row.items() if k != "key"}
        return cls(**data)


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
        for number, row in self._log.read():
            try:
                record = DraftRecord.from_dict(row)
            except (TypeError, AttributeError) as exc:
                raise InputFileError(f"{self.path}:{number}: not a draft record: {exc}") from None
            records[record.key] = record
        return records
