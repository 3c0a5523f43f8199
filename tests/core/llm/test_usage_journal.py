"""Usage adds up across invocations: killed ones and ones that reused everything included."""

from __future__ import annotations

from pathlib import Path

from lengthwise.llm.accounting import UsageLedger
from lengthwise.llm.types import ChatResult, Usage
from lengthwise.llm.usage_journal import UsageJournal, total_sentence
from lengthwise.spec import LLMRoleConfig

CONFIG = LLMRoleConfig(model="m", price_per_million_input=1.0, price_per_million_output=2.0)


def answer(cached: bool = False) -> ChatResult:
    return ChatResult("text", "ok", Usage(1000, 500), cached=cached, latency_seconds=0.5)


def test_totals_span_invocations_and_report_each(tmp_path: Path) -> None:
    path = tmp_path / "usage.jsonl"
    first = UsageLedger(UsageJournal(path))
    for _ in range(3):
        first.record("drafter", CONFIG, answer())
    # the first invocation is killed here: it never writes a report
    second = UsageLedger(UsageJournal(path))
    second.record("drafter", CONFIG, answer(cached=True))  # answered before the kill
    second.record("drafter", CONFIG, answer())
    third = UsageLedger(UsageJournal(path))  # reuses everything

    report = third.report()
    assert report["total"]["calls"] == 0  # this invocation
    overall = report["all_invocations"]
    assert [i["model_calls"] for i in overall["invocations"]] == [3, 1, 0]
    assert overall["total"]["model_calls"] == 4
    assert overall["total"]["cache_hits"] == 1
    assert overall["total"]["prompt_tokens"] == 4000
    assert overall["total"]["cost"] == 4 * (1000 * 1.0 + 500 * 2.0) / 1_000_000
    assert overall["total"]["runs"] == 3
    sentence = total_sentence(report, "on this work directory")
    assert sentence is not None and "all 3 runs" in sentence and "5 calls" in sentence


def test_torn_last_line_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "usage.jsonl"
    UsageLedger(UsageJournal(path)).record("evaluated", CONFIG, answer())
    with path.open("a") as handle:
        handle.write('{"invocation": "x", "event": "res')  # killed mid-write
    assert UsageJournal(path).summary()["total"]["model_calls"] == 1


def test_without_a_journal_the_report_is_unchanged() -> None:
    ledger = UsageLedger()
    ledger.record("evaluated", CONFIG, answer())
    assert "all_invocations" not in ledger.report()
    assert total_sentence(ledger.report(), "here") is None
