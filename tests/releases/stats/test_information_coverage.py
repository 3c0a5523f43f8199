"""Information coverage with a scripted in-process judge."""

from __future__ import annotations

import pytest

from lengthwise.llm.types import LLMClient
from lengthwise.releases.stats.information_coverage import (
    ICSample,
    bootstrap_interval,
    information_coverage,
    pick_samples,
)
from lengthwise.releases.stats.judge_prompts import PROMPT_VERSION
from lengthwise.tokenizers import get_tokenizer
from tests.releases.stats.scripted_judge import ScriptedJudge


def _text(*markers: str) -> str:
    # One 15-character line per chunk (the chunk limit below is 20 characters).
    return "".join(f"{m:_<14}\n" for m in markers)


SAMPLES = [
    ICSample("a", _text("KEY", "KEY", "NOISE", "WEIRD"), "en"),  # 1 1 0 ? -> 2/3
    ICSample("b", _text("NOISE", "KEY"), "en"),  # 0 1 -> 1/2
    ICSample("c", _text("WEIRD", "DOWN"), "en"),  # ? failed -> no IC
]


def _run(judge: LLMClient, samples: list[ICSample] = SAMPLES) -> dict[str, object]:
    return information_coverage(
        samples,
        judge,
        get_tokenizer("chars"),
        seed=3,
        chunk_tokens=20,
        request_options={"max_tokens": 64, "seed": 3},
    )


def test_ic_per_sample_and_subset_with_unparseable_and_failed_counted() -> None:
    judge = ScriptedJudge()
    result = _run(judge)
    per_sample = {row["id"]: row for row in result["per_sample"]}  # type: ignore[attr-defined]
    assert per_sample["a"]["ic"] == pytest.approx(2 / 3)
    assert per_sample["a"]["verdicts"] == "110-"
    assert per_sample["b"]["ic"] == pytest.approx(0.5)
    assert per_sample["c"]["ic"] is None
    assert per_sample["c"]["outcomes"] == {"failed_error": 1, "unparseable": 1}
    assert result["computed"] is True
    assert result["mean"] == pytest.approx((2 / 3 + 1 / 2) / 2)
    assert result["samples"] == 3 and result["samples_with_ic"] == 2
    assert result["samples_without_verdict"] == 1
    assert result["chunks"] == 8 and result["judge_calls"] == 8
    assert result["unparseable"] == 2
    assert result["verdicts"] == {"failed_error": 1, "parsed": 5, "unparseable": 2}
    low, high = result["ci95"]  # type: ignore[misc]
    assert 0.5 <= low <= result["mean"] <= high <= 2 / 3  # type: ignore[operator]


def test_requests_carry_prompt_version_options_and_one_chunk_each() -> None:
    judge = ScriptedJudge()
    _run(judge, SAMPLES[:1])
    assert len(judge.requests) == 4
    first = judge.requests[0]
    assert first.prompt_version == PROMPT_VERSION
    assert (first.max_tokens, first.seed, first.temperature) == (64, 3, 0.0)
    assert "KEY___________" in first.messages[-1].content
    assert "passage 1 of 4" in first.messages[-1].content
    assert dict(first.metadata) == {"sample": "a", "chunk": "1"}


def test_chinese_samples_get_the_chinese_prompt_and_parser() -> None:
    judge = ScriptedJudge()
    result = _run(judge, [ICSample("z", _text("KEY", "NOISE", "NOISE", "KEY"), "zh")])
    assert "最终得分" in judge.requests[0].messages[-1].content
    assert result["mean"] == pytest.approx(0.5)
    assert result["ci95"] is None  # one sample: no interval
    assert result["unparseable"] == 0


def test_the_same_inputs_give_the_same_report() -> None:
    assert _run(ScriptedJudge()) == _run(ScriptedJudge())


def test_pick_samples_is_seeded_and_independent_of_input_order() -> None:
    ids = [f"s{k:03d}" for k in range(200)]
    chosen = pick_samples(ids, 50, seed=7, subset="L")
    assert len(chosen) == 50 and chosen == sorted(chosen)
    assert pick_samples(list(reversed(ids)), 50, seed=7, subset="L") == chosen
    assert pick_samples(ids, 50, seed=8, subset="L") != chosen
    assert pick_samples(ids[:10], 50, seed=7, subset="L") == ids[:10]


def test_bootstrap_interval_is_reproducible() -> None:
    values = [0.2, 0.4, 0.9, 0.7, 0.5]
    interval = bootstrap_interval(values, seed=1)
    assert interval == bootstrap_interval(values, seed=1)
    assert interval is not None and interval[0] < sum(values) / 5 < interval[1]
    assert bootstrap_interval([0.5], seed=1) is None
