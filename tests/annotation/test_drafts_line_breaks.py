"""Drafts holding any Unicode line break survive an interrupted run and are not redrafted.

The draft log (drafts/chapters.jsonl) used to be split with `str.splitlines()`: a
synopsis with U+2028 made the log unreadable on resume. Here every draft carries every
line break; a run killed halfway resumes, drafts each chapter once, and the drafts shown
to annotators hold the text as the drafter wrote it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lengthwise.annotation.drafts import run_drafting
from lengthwise.jsonl import read_jsonl
from lengthwise.llm.types import ChatRequest, ChatResult, Usage
from lengthwise.spec import LLMRoleConfig
from tests.annotation.scripted_client import Interrupted, ScriptedClient, chapter_text

BREAKS = ("\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")
HOSTILE = "line" + "".join(f"<{b}>" for b in BREAKS) + "end"


def hostile_synopsis(request: ChatRequest) -> ChatResult:
    first = chapter_text(request).split("\n", 1)[0]
    return ChatResult(f"Synopsis of [{first}] {HOSTILE}", "ok", Usage(10, 7), model="m")


def test_drafts_with_every_line_break_resume_and_are_drafted_once(
    draft_work: Path, drafter_config: LLMRoleConfig
) -> None:
    first = ScriptedClient(hostile_synopsis, interrupt_after=3)
    with pytest.raises(Interrupted):
        run_drafting(draft_work, first, drafter_config)
    second = ScriptedClient(hostile_synopsis)
    result = run_drafting(draft_work, second, drafter_config)
    drafted = [dict(r.metadata)["chapter"] for c in (first, second) for r in c.calls]
    assert len(drafted) == len(set(drafted)) == result.report.to_json()["chapters"]
    assert result.report.to_json()["reused"] == 3

    log = list(read_jsonl(draft_work / "drafts" / "chapters.jsonl"))
    assert len(log) == len(drafted) and all(HOSTILE in row["text"] for row in log)
    shown = [c["draft"] for row in read_jsonl(draft_work / "drafts" / "samples.jsonl")
             for c in row["chapters"]]  # fmt: skip
    assert shown and all(HOSTILE in text for text in shown)

    third = ScriptedClient(hostile_synopsis)
    assert run_drafting(draft_work, third, drafter_config).up_to_date and third.calls == []
