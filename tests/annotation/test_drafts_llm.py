"""Drafting with an LLM drafter (scripted test double): order, sharing, resume, outcomes."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from lengthwise.annotation.drafts import PROMPT_VERSION, run_drafting
from lengthwise.builders.joining import render_chapter
from lengthwise.llm.types import ChatRequest, ChatResult, Usage
from lengthwise.records import Book
from lengthwise.spec import LLMRoleConfig
from lengthwise.tokenizers import get_tokenizer
from tests.annotation.scripted_client import (
    Interrupted,
    ScriptedClient,
    chapter_text,
    echo_first_line,
)


def sample_rows(draft_work: Path) -> list[dict[str, Any]]:
    paths = sorted((draft_work / "samples").glob("*.parquet"))
    return [row for path in paths for row in pq.read_table(path).to_pylist()]


def distinct_chapters(draft_work: Path) -> set[str]:
    return {sha for row in sample_rows(draft_work) for sha in row["chapter_sha256"]}


def jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def drafted_chapter(request: ChatRequest) -> str:
    return dict(request.metadata)["chapter"]


def test_shared_chapters_are_drafted_once_and_samples_get_their_own_drafts_in_order(
    draft_work: Path, drafter_config: LLMRoleConfig
) -> None:
    rows = sample_rows(draft_work)
    uses = Counter(sha for row in rows for sha in row["chapter_sha256"])
    assert max(uses.values()) > 1, "the demo build should have chapters shared by samples"
    client = ScriptedClient(order="reversed")  # results arrive last first
    result = run_drafting(draft_work, client, drafter_config)

    assert Counter(drafted_chapter(r) for r in client.calls) == Counter(set(uses))
    assert (
        result.report.to_json()["chapters"] == len(uses)
        and result.report.to_json()["drafter"] == "llm"
    )
    drafts = {row["id"]: row for row in jsonl(draft_work / "drafts" / "samples.jsonl")}
    assert set(drafts) == {row["id"] for row in rows}
    for row in rows:
        chapters = drafts[row["id"]]["chapters"]
        indexes = [c["chapter_index"] for c in chapters]
        assert indexes == list(range(row["first_chapter"], row["last_chapter"] + 1))
        for chapter, heading in zip(chapters, row["chapter_titles"], strict=True):
            # The scripted drafter quotes the first line it was shown: this chapter's heading.
            assert chapter["draft"] == f"Synopsis of [{heading}]"
            assert chapter["drafter"] == "llm" and chapter["model"] == "scripted-model"
    records = jsonl(draft_work / "drafts" / "chapters.jsonl")
    assert len(records) == len(uses)
    for record in records:
        assert record["model"] == "scripted-model"
        assert record["base_url"] == "http://127.0.0.1:9/v1"
        assert record["prompt_version"] == PROMPT_VERSION[record["language"]]
        assert record["usage"]["completion_tokens"] == 7 and record["usage"]["prompt_tokens"] > 0
        assert record["outcome"] == "ok" and record["created_at"].endswith("Z")
    usage = result.report.to_json()["usage"]["roles"]["drafter"]
    assert usage["calls"] == len(uses) and usage["completion_tokens"] == 7 * len(uses)


def test_prompts_hold_the_chapter_and_heading_but_not_the_book_title(
    draft_work: Path, drafter_config: LLMRoleConfig
) -> None:
    client = ScriptedClient()
    run_drafting(draft_work, client, drafter_config)
    titles = {row["book_id"]: row["book_title"] for row in sample_rows(draft_work)}
    for request in client.calls:
        book = dict(request.metadata)["book"]
        prompt = "\n".join(m.content for m in request.messages)
        assert titles[book] not in prompt
        language = "zh" if book.startswith("zh") else "en"
        assert request.prompt_version == PROMPT_VERSION[language]
        assert ("情节梗概" in prompt) == (language == "zh")
        assert request.max_tokens == drafter_config.max_tokens


def test_interrupted_run_resumes_without_drafting_any_chapter_twice(
    draft_work: Path, drafter_config: LLMRoleConfig
) -> None:
    total = len(distinct_chapters(draft_work))
    first = ScriptedClient(interrupt_after=total // 2)
    with pytest.raises(Interrupted):
        run_drafting(draft_work, first, drafter_config)
    assert len(jsonl(draft_work / "drafts" / "chapters.jsonl")) == total // 2
    assert not (draft_work / "drafts" / "report.json").exists()

    # A second interruption, raised from the per-chapter callback (inside on_result).
    second = ScriptedClient()
    stored: list[str] = []

    def stop_after_three(record: Any) -> None:
        stored.append(record.chapter_sha256)
        if len(stored) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_drafting(draft_work, second, drafter_config, on_chapter=stop_after_three)
    third = ScriptedClient()
    result = run_drafting(draft_work, third, drafter_config)

    drafted = [drafted_chapter(r) for c in (first, second, third) for r in c.calls]
    assert sorted(drafted) == sorted(distinct_chapters(draft_work)), "each chapter drafted once"
    assert len(jsonl(draft_work / "drafts" / "chapters.jsonl")) == total
    assert result.report.to_json()["reused"] == total // 2 + 3
    assert result.report.to_json()["drafted_this_run"] == total - total // 2 - 3


def test_rerun_with_nothing_new_does_nothing(
    draft_work: Path, drafter_config: LLMRoleConfig
) -> None:
    run_drafting(draft_work, ScriptedClient(), drafter_config)
    files = sorted((draft_work / "drafts").iterdir())
    before = {p: p.stat().st_mtime_ns for p in files}
    again = ScriptedClient()
    result = run_drafting(draft_work, again, drafter_config)
    assert result.up_to_date and again.calls == []
    assert {p: p.stat().st_mtime_ns for p in files} == before

    # Another drafter model is another drafter: everything is drafted again, by it.
    other = ScriptedClient()
    changed = drafter_config.model_copy(update={"model": "another-model"})
    result = run_drafting(draft_work, other, changed)
    assert not result.up_to_date and len(other.calls) == result.report.to_json()["chapters"]


def outcome_by_heading(outcomes: dict[str, str]) -> Any:
    """Answers with the outcome named for a heading prefix, else an ok echo."""

    def answer(request: ChatRequest) -> ChatResult:
        first = chapter_text(request).split("\n", 1)[0]
        for prefix, outcome in outcomes.items():
            if first.startswith(prefix):
                text = "cut short" if outcome == "length" else ""
                error = "gave up after 4 retries" if outcome == "error" else None
                return ChatResult(text, outcome, Usage(10, 0), "scripted-model", error=error)
        return echo_first_line(request)

    return answer


def test_failed_outcomes_are_reported_and_fall_back_to_extractive_drafts(
    draft_work: Path, drafter_config: LLMRoleConfig
) -> None:
    rows = sample_rows(draft_work)
    headings = Counter(h for row in rows for h in row["chapter_titles"])
    unique = sorted(h for h, n in headings.items() if n == 1 and h.startswith("CHAPTER"))
    blocked, error, length = unique[0], unique[1], unique[2]
    client = ScriptedClient(
        outcome_by_heading({blocked: "blocked", error: "error", length: "length"})
    )
    result = run_drafting(draft_work, client, drafter_config)

    failed = {f["heading"]: f for f in result.report.to_json()["failed_chapters"]}
    assert set(failed) == {blocked, error}
    assert failed[error]["error"] == "gave up after 4 retries"
    assert (
        result.report.to_json()["outcomes"]["blocked"] == 1
        and result.report.to_json()["outcomes"]["length"] == 1
    )
    shown = {
        c["heading"]: c
        for row in jsonl(draft_work / "drafts" / "samples.jsonl")
        for c in row["chapters"]
    }
    for heading in (blocked, error):
        assert shown[heading]["drafter"] == "extractive" and shown[heading]["draft"]
        assert shown[heading]["fallback_reason"].startswith("llm outcome")
    assert shown[length]["drafter"] == "llm" and shown[length]["draft"] == "cut short"
    report_md = (draft_work / "drafts" / "report.md").read_text(encoding="utf-8")
    assert blocked in report_md and error in report_md

    # Errors (transient failures) are retried on the next run; blocked chapters are not.
    retry = ScriptedClient()
    result = run_drafting(draft_work, retry, drafter_config)
    assert [chapter_text(r).split("\n", 1)[0] for r in retry.calls] == [error]
    assert [f["heading"] for f in result.report.to_json()["failed_chapters"]] == [blocked]


def test_chapters_over_the_context_window_are_drafted_in_parts(
    draft_work: Path, drafter_config: LLMRoleConfig
) -> None:
    config = drafter_config.model_copy(update={"context_window": 900, "max_tokens": 200})
    client = ScriptedClient()
    result = run_drafting(draft_work, client, config)
    assert len(client.calls) > result.report.to_json()["chapters"], "some chapters must be split"

    qwen = get_tokenizer("qwen2.5")
    parts_by_chapter: dict[str, list[str]] = {}
    for request in client.calls:
        prompt = "\n".join(m.content for m in request.messages)
        assert qwen.count(prompt) + config.max_tokens <= 900, "a part fits the window"
        parts_by_chapter.setdefault(drafted_chapter(request), []).append(chapter_text(request))
    records = {r["chapter_sha256"]: r for r in jsonl(draft_work / "drafts" / "chapters.jsonl")}
    chapters = {
        c.sha256: render_chapter(c)
        for line in (draft_work / "corpus" / "books.jsonl").read_text(encoding="utf-8").splitlines()
        for c in Book.from_dict(json.loads(line)).chapters
    }
    split = [sha for sha, parts in parts_by_chapter.items() if len(parts) > 1]
    assert split
    for sha in split:
        parts = parts_by_chapter[sha]
        record = records[sha]
        assert record["parts"] == len(parts)
        # The parts are the chapter, cut in order (line breaks aside).
        assert "".join("".join(parts).split()) == "".join(chapters[sha].split())
        # Each part's draft quotes that part's first line, joined in chapter order.
        assert record["text"].split("\n") == [
            f"Synopsis of [{p.split(chr(10), 1)[0]}]" for p in parts
        ]
        assert record["text"].startswith(f"Synopsis of [{record['heading']}]")
