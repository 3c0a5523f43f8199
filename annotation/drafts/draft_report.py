"""WORK/drafts/report.json as a typed record."""

from __future__ import annotations

from dataclasses import dataclass

from typing_extensions import TypedDict

from lengthwise.json_records import JsonRecord
from lengthwise.llm.accounting import UsageJson


class FailedChapterJson(TypedDict):
    """A chapter the LLM could not draft (annotators see the extractive draft instead)."""

    book_id: str
    chapter_index: int
    heading: str
    outcome: str
    error: str | None
    shown_instead: str


class StoredUsageJson(TypedDict):
    """Tokens of the stored drafts of every chapter (this run's and reused ones)."""

    prompt_tokens: int
    completion_tokens: int


@dataclass(kw_only=True)
class DraftReport(JsonRecord):
    stage: str = "draft"
    drafter: str  # "llm" or "extractive"
    drafter_key: str
    extractive_fallback: bool  # no drafter model: every draft is extractive
    model: str
    base_url: str | None
    revision: str | None
    prompt_versions: dict[str, str]  # language -> prompt version ({} when extractive)
    samples: int
    chapters: int
    drafted_this_run: int
    reused: int
    outcomes: dict[str, int]  # of the primary drafter, per chapter
    failed_chapters: list[FailedChapterJson]
    stored_usage: StoredUsageJson
    usage: UsageJson
