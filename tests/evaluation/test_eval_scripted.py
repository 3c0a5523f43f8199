"""End to end against a scripted OpenAI-compatible server: known answers, known scores.

The server (tests/fixtures/scripted_openai.py, a real HTTP peer) answers each prompt
according to which released sample it contains, so every outcome and score is known:
the reference itself, a copy of the context, a content-filter refusal, an empty answer.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lengthwise.cli import main
from lengthwise.evaluation.metrics import rouge_l
from lengthwise.evaluation.runner import EvalConfig, run_eval
from lengthwise.evaluation.store import GENERATIONS
from lengthwise.storage import read_json, read_jsonl, sha256_file
from tests.evaluation.scripted_answers import Rows, answer_for
from tests.fixtures.scripted_openai import ScriptedOpenAIServer


def _eval_args(release: Path, base_url: str, out: Path, *extra: str) -> list[str]:
    return [
        "eval",
        "--release",
        str(release),
        "--model",
        "scripted-model",
        "--backend",
        "openai",
        "--base-url",
        base_url,
        "--tokenizer",
        "qwen2.5",
        "--subsets",
        "S,M",
        "--out",
        str(out),
        "--no-report",
        *extra,
    ]


def test_scores_outcomes_and_provenance(
    tiny_release: Path, release_rows: Rows, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    with ScriptedOpenAIServer(answer_for(release_rows)) as server:
        code = main(_eval_args(tiny_release, server.base_url, out))
        requests = len(server.requests)
    assert code == 0
    results = read_json(out / "results.json")
    lines = list(read_jsonl(out / GENERATIONS))
    pairs = {(line["subset"], line["sample_id"], line["prompt_id"]) for line in lines}
    assert len(lines) == len(pairs) == 2 * (len(release_rows["S"]) + len(release_rows["M"]))
    assert requests == len(lines)

    s_rows = release_rows["S"]
    copied_score = rouge_l(s_rows[1]["context"][:400], s_rows[1]["summary"], s_rows[1]["language"])
    for prompt in ("IB", "IE"):
        entry = results["results"]["S"][prompt]
        assert entry["outcomes"] == {"ok": 1, "copied_context": 1, "blocked": 1, "empty": 1}
        assert entry["n"] == 4
        assert entry["mean"] == pytest.approx(100 * (1.0 + copied_score + 0 + 0) / 4)
        low, high = entry["ci"]
        assert low <= entry["mean"] <= high

    m_ib, m_ie = results["results"]["M"]["IB"], results["results"]["M"]["IE"]
    assert m_ib["mean"] == pytest.approx(100.0)
    assert m_ie["mean"] < m_ib["mean"]
    ib_ie = results["analysis"]["ib_ie"]
    assert ib_ie["squared_differences"]["S"] == pytest.approx(0.0)
    assert ib_ie["squared_differences"]["M"] == pytest.approx((m_ib["mean"] - m_ie["mean"]) ** 2)
    assert ib_ie["msd"] == pytest.approx(ib_ie["squared_differences"]["M"] / 2)
    paired = results["analysis"]["paired_ie_minus_ib"]["M"]
    assert paired["losses"] == len(release_rows["M"]) and paired["mean_difference"] < 0
    drop = results["analysis"]["length_drop"]["IB"]
    assert (drop["from"], drop["to"]) == ("S", "M")

    # What a reader needs to reproduce the numbers.
    assert results["release"]["manifest_sha256"] == sha256_file(tiny_release / "manifest.json")
    assert results["release"]["version"] == "1.0.0"
    assert results["tool"]["name"] == "lengthwise" and results["tool"]["version"]
    assert results["seeds"] == {"generation": 0, "bootstrap": 0}
    assert results["decoding"]["temperature"] == 0.0 and results["decoding"]["greedy"]
    assert results["plan"]["policy"] == "truncate-middle"
    assert results["plan"]["tokenizer"] == "qwen2.5"
    assert results["model"]["base_url"] == server.base_url
    assert results["complete"] is True

    by_sample = {(line["sample_id"], line["prompt_id"]): line for line in lines}
    blocked = by_sample[(s_rows[2]["id"], "IB")]
    assert blocked["outcome"] == "blocked" and blocked["score"] == 0.0
    perfect = by_sample[(s_rows[0]["id"], "IE")]
    assert perfect["score"] == pytest.approx(1.0) and perfect["prediction"] == s_rows[0]["summary"]
    for line in lines:
        assert set(line) >= {
            "sample_id", "subset", "prompt_id", "prompt_tokens", "truncation", "outcome",
            "prediction", "score", "usage", "cached",
        }  # fmt: skip
    # The greedy request as sent.
    sent = server.requests[0].body
    assert sent["temperature"] == 0.0 and sent["seed"] == 0 and sent["max_tokens"] == 400


def test_interrupted_run_resumes_without_resending_and_matches(
    tiny_release: Path, release_rows: Rows, tmp_path: Path
) -> None:
    def config(out: Path, base_url: str) -> EvalConfig:
        from lengthwise.evaluation.backends import EngineSettings

        return EvalConfig(
            release=str(tiny_release),
            model="scripted-model",
            backend="openai",
            out=out,
            tokenizer="qwen2.5",
            write_report=False,
            engine=EngineSettings(
                backend="openai", model="scripted-model", base_url=base_url, concurrency=3
            ),
        )

    class Stop(KeyboardInterrupt):
        pass

    seen: list[dict[str, Any]] = []

    def stop_after_five(line: dict[str, Any]) -> None:
        seen.append(line)
        if len(seen) == 5:
            raise Stop

    with ScriptedOpenAIServer(answer_for(release_rows)) as server:
        full = run_eval(config(tmp_path / "full", server.base_url))
        sent_for_full = len(server.requests)
        with pytest.raises(Stop):
            run_eval(config(tmp_path / "resumed", server.base_url), observer=stop_after_five)
        sent_before_resume = len(server.requests) - sent_for_full
        resumed = run_eval(config(tmp_path / "resumed", server.base_url))
        sent_for_resumed = len(server.requests) - sent_for_full

    total = 2 * (len(release_rows["S"]) + len(release_rows["M"]))
    assert sent_for_full == total
    assert 5 <= sent_before_resume < total
    # Nothing finished was sent again: answers in flight at the kill came from the cache.
    assert sent_for_resumed == total
    assert resumed.reused == 5
    assert full.results["results"] == resumed.results["results"]
    assert full.results["analysis"] == resumed.results["analysis"]
    lines = list(read_jsonl(tmp_path / "resumed" / GENERATIONS))
    assert len(lines) == total


def test_a_different_run_in_the_same_folder_is_refused(
    tiny_release: Path, release_rows: Rows, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    with ScriptedOpenAIServer(answer_for(release_rows)) as server:
        assert main(_eval_args(tiny_release, server.base_url, out, "--subsets", "S")) == 0
        code = main(_eval_args(tiny_release, server.base_url, out, "--subsets", "S", "--seed", "1"))
        assert code == 2
        assert "different settings (decoding)" in capsys.readouterr().err
        again = main(
            _eval_args(
                tiny_release, server.base_url, out, "--subsets", "S", "--seed", "1", "--overwrite"
            )
        )
        assert again == 0
    assert read_json(out / "results.json")["seeds"]["generation"] == 1


def test_truncation_is_recorded_per_sample(
    tiny_release: Path, release_rows: Rows, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    with ScriptedOpenAIServer(answer_for(release_rows)) as server:
        args = _eval_args(tiny_release, server.base_url, out, "--subsets", "M")
        assert main([*args, "--context-window", "1400", "--max-new-tokens", "200"]) == 0
    lines = list(read_jsonl(out / GENERATIONS))
    truncated = [line for line in lines if line["truncation"]]
    assert truncated, "M prompts (about 1400 tokens + template) must be cut to fit 1200"
    for line in truncated:
        assert line["prompt_tokens"] <= 1200 < line["original_prompt_tokens"]
        cut = line["truncation"]
        assert cut["cut_tokens"] == line["original_prompt_tokens"] - line["prompt_tokens"]
        assert (
            0 < cut["where"]["from_char"] < cut["where"]["to_char"] < cut["where"]["context_chars"]
        )
    plan = read_json(out / "results.json")["plan"]
    assert plan["context_window"] == 1400
    assert sum(g["actions"].get("truncated", 0) for g in plan["subsets"]["M"].values()) == len(
        truncated
    )
    assert json.dumps(plan)  # stored whole in results.json


def test_progress_is_a_bar_on_a_terminal_and_log_lines_elsewhere(
    tiny_release: Path,
    release_rows: Rows,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import sys

    answers = 2 * (len(release_rows["S"]) + len(release_rows["M"]))
    with ScriptedOpenAIServer(answer_for(release_rows)) as server:
        with caplog.at_level("INFO", logger="lengthwise.evaluation.runner"):
            assert main(_eval_args(tiny_release, server.base_url, tmp_path / "logged")) == 0
        written = [r.getMessage() for r in caplog.records if "answers written" in r.getMessage()]
        assert written and written[-1].startswith(f"{answers}/{answers} answers written")
        caplog.clear()
        capsys.readouterr()
        monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
        with caplog.at_level("INFO", logger="lengthwise.evaluation.runner"):
            assert main(_eval_args(tiny_release, server.base_url, tmp_path / "drawn")) == 0
    assert not [r for r in caplog.records if "answers written" in r.getMessage()]
    assert "eval: answers" in capsys.readouterr().err
