"""The contamination probe with a scripted probe model: decisions, evidence, reports."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from lengthwise.builders.screening import (
    ProbeSettings,
    choose_chapters,
    flagged_books,
    run_probe,
)
from lengthwise.cli import main
from lengthwise.llm.types import ChatRequest, ChatResult, Usage
from lengthwise.records import Book, Chapter
from lengthwise.spec import LLMRoleConfig
from lengthwise.storage import atomic_write_jsonl
from tests.annotation.scripted_client import ScriptedClient, chapter_text

EN_BOOK = Book(
    id="lantern-road",
    title="The Lantern Road: A Tale of the Marshes",
    language="en",
    source="test",
    raw_sha256="0",
    encoding="utf-8",
    author="Agnes Whitlow",
    chapters=[
        Chapter(
            book_id="lantern-road",
            index=i,
            heading=f"CHAPTER {i + 1}.",
            number=i + 1,
            title="",
            text=(
                f"Marta waited at the ferry on the {i + 1}th night. Oswin brought the ledger "
                "and they argued about the toll until the lamps went out in Fenmouth."
            ),
        )
        for i in range(8)
    ],
)
ZH_BOOK = Book(
    id="dukou-ji",
    title="渡口记",
    language="zh",
    source="test",
    raw_sha256="1",
    encoding="utf-8",
    author="沈默之",
    chapters=[
        Chapter(
            book_id="dukou-ji",
            index=i,
            heading=f"第{i + 1}回",
            number=i + 1,
            title="",
            text="沈青在渡口等船，韩越把账本交给了掌柜。两人在青石镇争吵到深夜。",
        )
        for i in range(6)
    ],
)


@pytest.fixture
def work(tmp_path: Path) -> Path:
    atomic_write_jsonl(
        tmp_path / "corpus" / "books.jsonl", [b.to_dict() for b in (EN_BOOK, ZH_BOOK)]
    )
    return tmp_path


CONFIG = LLMRoleConfig(model="scripted-probe", base_url="http://127.0.0.1:9/v1", max_tokens=200)


def answering(en: str, zh: str, outcome: str = "ok") -> Callable[[ChatRequest], ChatResult]:
    def answer(request: ChatRequest) -> ChatResult:
        text = zh if "沈青" in chapter_text(request) else en
        return ChatResult(text, outcome, Usage(50, 20), "scripted-probe")  # type: ignore[arg-type]

    return answer


def probe(work: Path, answer: Callable[[ChatRequest], ChatResult]) -> dict[str, Any]:
    client = ScriptedClient(answer)
    result = run_probe(work, client, CONFIG, ProbeSettings(chapters_per_book=3, seed=11))
    for request in client.calls:  # the prompt never names the book or its author
        prompt = request.messages[-1].content
        assert "Lantern Road" not in prompt and "Whitlow" not in prompt
        assert "渡口记" not in prompt and "沈默之" not in prompt
    assert len(client.calls) == 6
    return {b["book_id"]: b for b in result.report.to_json()["books"]}


def test_faithful_summaries_are_not_flagged(work: Path) -> None:
    books = probe(
        work,
        answering(
            "Marta waits at the ferry while Oswin brings the ledger; in Fenmouth they argue.",
            "沈青在渡口等船，韩越交出账本，两人在青石镇争吵。",
        ),
    )
    for book in books.values():
        assert book["probed"] and not book["flagged"] and book["reasons"] == []
        assert len(book["outputs"]) == 3 and all(o["unsupported"] == [] for o in book["outputs"])
    assert flagged_books(work) == {}


def test_naming_the_title_or_author_flags_the_book(work: Path) -> None:
    books = probe(
        work,
        answering(
            "In this chapter of The Lantern Road, Marta waits for Oswin at the ferry.",
            "这是沈默之笔下的一章：沈青在渡口等船，韩越交出账本。",
        ),
    )
    en, zh = books["lantern-road"], books["dukou-ji"]
    assert en["flagged"] and "title" in en["reasons"][0] and "Lantern Road" in en["reasons"][0]
    assert zh["flagged"] and "author" in zh["reasons"][0] and "沈默之" in zh["reasons"][0]
    assert {m["kind"] for m in en["evidence"]["mentions"]} == {"title"}
    flagged = flagged_books(work)
    assert set(flagged) == {"lantern-road", "dukou-ji"} and "author" in flagged["dukou-ji"]
    report_md = (work / "screening" / "contamination.md").read_text(encoding="utf-8")
    assert "lantern-road" in report_md and "yes" in report_md


def test_names_from_outside_the_chapters_flag_the_book_with_evidence(work: Path) -> None:
    books = probe(
        work,
        answering(
            "Marta meets Captain Brannock and Lady Whitcombe at the ferry, while Oswin "
            "sails to Carrowmore with Sir Edric Vane.",
            "沈青在渡口遇见了诸葛亮，韩越随曹操去了许昌。",
        ),
    )
    en, zh = books["lantern-road"], books["dukou-ji"]
    assert en["flagged"] and "adds names" in en["reasons"][0]
    unsupported = {n for item in en["evidence"]["unsupported_names"] for n in item["names"]}
    assert {"Captain Brannock", "Lady Whitcombe", "Carrowmore", "Sir Edric Vane"} <= unsupported
    assert not unsupported & {"Marta", "Oswin"}
    assert zh["flagged"]
    zh_unsupported = {n for item in zh["evidence"]["unsupported_names"] for n in item["names"]}
    assert {"诸葛亮", "曹操", "许昌"} <= zh_unsupported and "沈青" not in zh_unsupported


def test_refused_probes_are_recorded_not_flagged(work: Path) -> None:
    books = probe(work, answering("", "", outcome="blocked"))
    for book in books.values():
        assert not book["flagged"] and not book["probed"]
        assert "blocked" in book["reasons"][0]
        assert {o["outcome"] for o in book["outputs"]} == {"blocked"}


def test_chapter_draw_is_seeded_per_book_and_stable() -> None:
    picks = choose_chapters(EN_BOOK, 3, seed=5)
    assert picks == choose_chapters(EN_BOOK, 3, seed=5) and len(set(picks)) == 3
    assert picks == sorted(picks) and all(0 <= i < 8 for i in picks)
    assert choose_chapters(EN_BOOK, 20, seed=5) == list(range(8))
    draws = {tuple(choose_chapters(EN_BOOK, 3, seed=s)) for s in range(10)}
    assert len(draws) > 1, "the seed changes the draw"


def test_rerun_with_same_inputs_writes_nothing(work: Path) -> None:
    answer = answering("Marta waits.", "沈青等船。")
    run_probe(work, ScriptedClient(answer), CONFIG, ProbeSettings(seed=1))
    report = work / "screening" / "contamination.json"
    before = report.stat().st_mtime_ns
    again = ScriptedClient(answer)
    result = run_probe(work, again, CONFIG, ProbeSettings(seed=1))
    assert result.up_to_date and again.calls == [] and report.stat().st_mtime_ns == before


def test_probe_command_without_a_probe_model_reports_not_run(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = work / "spec.toml"
    spec.write_text('name = "t"\n[[sources]]\nkind = "files"\npath = "."\n', encoding="utf-8")
    assert main(["probe", str(spec), "--work", str(work)]) == 0
    assert "not run" in capsys.readouterr().out
    report = json.loads((work / "screening" / "contamination.json").read_text(encoding="utf-8"))
    assert report["status"] == "not run" and "[llm.probe]" in report["reason"]
    assert flagged_books(work) == {}
    assert main(["probe", str(spec), "--work", str(work), "--chapters-per-book", "0"]) == 2
    assert "at least 1" in capsys.readouterr().err
