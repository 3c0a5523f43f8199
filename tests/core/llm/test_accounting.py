"""Per-role token, cost and outcome figures for reports; client construction per backend."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from lengthwise.llm.accounting import UsageLedger
from lengthwise.llm.factory import make_client, make_request
from lengthwise.llm.openai_backend import OpenAIClient
from lengthwise.llm.transformers_backend import TransformersClient
from lengthwise.llm.types import ChatResult, Usage
from lengthwise.spec import LLMRoleConfig

DRAFTER = LLMRoleConfig(
    model="qwen-plus", price_per_million_input=0.8, price_per_million_output=2.0
)
JUDGE = LLMRoleConfig(model="judge-model")  # free (local)


def test_ledger_adds_tokens_cost_and_outcomes_per_role() -> None:
    ledger = UsageLedger()
    ledger.record(
        "drafter", DRAFTER, ChatResult("a", "ok", Usage(1_000_000, 250_000), latency_seconds=2.0)
    )
    ledger.record(
        "drafter", DRAFTER, ChatResult("b", "length", Usage(500_000, 500_000), latency_seconds=3.0)
    )
    ledger.record("drafter", DRAFTER, ChatResult("", "blocked", Usage(1000, 0)))
    ledger.record("drafter", DRAFTER, ChatResult("", "error", error="HTTP 503"))
    ledger.record("drafter", DRAFTER, ChatResult("c", "ok", Usage(9_999, 9_999), cached=True))
    ledger.record("judge", JUDGE, ChatResult("9", "ok", Usage(300, 1)))

    report = ledger.to_dict()
    drafter = report["roles"]["drafter"]
    assert drafter["model"] == "qwen-plus"
    assert drafter["calls"] == 5 and drafter["cache_hits"] == 1 and drafter["model_calls"] == 4
    assert drafter["outcomes"] == {"blocked": 1, "error": 1, "length": 1, "ok": 2}
    # The cache hit cost nothing in this run: its tokens are not counted again.
    assert drafter["prompt_tokens"] == 1_501_000 and drafter["completion_tokens"] == 750_000
    assert drafter["cost"] == pytest.approx(1.501 * 0.8 + 0.75 * 2.0)
    assert drafter["request_seconds"] == pytest.approx(5.0)
    assert report["roles"]["judge"]["cost"] == 0.0
    assert report["total"]["calls"] == 6 and report["total"]["prompt_tokens"] == 1_501_300
    assert report["total"]["outcomes"]["ok"] == 3
    json.dumps(report)  # goes into JSON reports as is


def test_ledger_counts_every_record_from_many_threads() -> None:
    ledger = UsageLedger()

    def work() -> None:
        for _ in range(500):
            ledger.record("probe", DRAFTER, ChatResult("x", "ok", Usage(3, 2)))

    threads = [threading.Thread(target=work) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    probe = ledger.role("probe")
    assert probe.calls == 4000 and probe.prompt_tokens == 12_000 and probe.completion_tokens == 8000


def test_an_unused_role_reads_as_zero() -> None:
    assert UsageLedger().role("locator").calls == 0
    assert UsageLedger().to_dict() == {
        "roles": {},
        "total": {
            "calls": 0,
            "cache_hits": 0,
            "model_calls": 0,
            "outcomes": {},
            "prompt_tokens": 0,
            "completion_tokens": 0,
            "total_tokens": 0,
            "cost": 0.0,
            "request_seconds": 0.0,
        },
    }


def test_make_client_picks_the_backend(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text("{}")
    remote = make_client(LLMRoleConfig(model="m", base_url="http://127.0.0.1:9/v1"))
    local = make_client(LLMRoleConfig(backend="transformers", model=str(tmp_path)))
    assert isinstance(remote, OpenAIClient) and remote.name == "openai:m@http://127.0.0.1:9/v1"
    assert isinstance(local, TransformersClient) and local.name == f"transformers:{tmp_path}"


def test_make_request_uses_the_role_defaults_unless_overridden() -> None:
    role = LLMRoleConfig(model="m", max_tokens=900, temperature=0.3, seed=7)
    request = make_request(role, "sys", "user", prompt_version="p1")
    assert (request.max_tokens, request.temperature, request.seed) == (900, 0.3, 7)
    assert [m.role for m in request.messages] == ["system", "user"]
    assert make_request(role, None, "u", prompt_version="p1", max_tokens=10).max_tokens == 10
