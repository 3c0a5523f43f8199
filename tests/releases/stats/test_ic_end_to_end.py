"""IC end to end through an OpenAI-compatible server on 127.0.0.1 and the request cache."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from lengthwise.cli import main
from lengthwise.releases.stats.judge_client import OpenJudge
from lengthwise.releases.stats.report import JudgeSetup, run_stats
from lengthwise.spec import LLMConfig, load_spec
from tests.fixtures.scripted_openai import Reply, ok_body


def _spec_with_judge(demo_spec: Path, folder: Path, base_url: str, model: str) -> Path:
    text = demo_spec.read_text(encoding="utf-8").replace(
        'path = "corpus"', f'path = "{demo_spec.parent / "corpus"}"'
    )
    text += f'\n[llm.judge]\nmodel = "{model}"\nbase_url = "{base_url}"\nmax_tokens = 64\n'
    path = folder / "judged.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _verdicts(_number: int, body: dict[str, Any]) -> Reply:
    """Passage 1 of every sample gets an unparseable answer; the others 1, or 0 in chapters."""
    prompt = body["messages"][-1]["content"]
    zh = "最终得分" in prompt
    if "passage 1 of" in prompt or "（第1段，" in prompt:
        return Reply(body=ok_body("This passage is important, so 1."))
    verdict = 0 if ("Chapter" in prompt or "回" in prompt.split("<<<", 1)[1][:40]) else 1
    final = f"最终得分：{verdict}" if zh else f"Final score: {verdict}"
    return Reply(body=ok_body(f"Reasoning first.\n{final}"))


@pytest.mark.slow
def test_ic_through_a_local_server_counts_unparseable_and_reruns_from_cache(
    stats_demo_build: tuple[Path, Path],
    stats_work: Path,
    tmp_path: Path,
    scripted_openai: Callable[..., Any],
    capsys: pytest.CaptureFixture[str],
) -> None:
    server = scripted_openai(_verdicts)
    spec = _spec_with_judge(stats_demo_build[0], tmp_path, server.base_url, "judge-model")
    args = ["stats", str(spec), "--work", str(stats_work), "--ic-samples", "3"]
    assert main(args) == 0
    first_calls = len(server.requests)
    data = json.loads((stats_work / "stats" / "stats.json").read_text(encoding="utf-8"))
    total_chunks = 0
    for subset in data["subsets"].values():
        ic = subset["information_coverage"]
        assert ic["computed"] and ic["samples"] == 3
        assert ic["unparseable"] == 3  # passage 1 of each sample
        assert ic["verdicts"]["parsed"] == ic["chunks"] - 3
        assert ic["ci95"] is not None and ic["ci95"][0] <= ic["mean"] <= ic["ci95"][1]
        assert ic["cached_calls"] == 0
        total_chunks += ic["chunks"]
    assert first_calls == total_chunks
    assert {r.body["model"] for r in server.requests} == {"judge-model"}
    assert "Final score" in "".join(r.body["messages"][-1]["content"] for r in server.requests)
    assert "IC [95% CI]" in (stats_work / "stats" / "stats.md").read_text(encoding="utf-8")
    assert data["usage"]["roles"]["judge"]["model_calls"] == first_calls

    # Unchanged inputs: nothing to do. Forced: recomputed from the request cache only.
    assert main(args) == 0
    assert "up to date" in capsys.readouterr().out
    assert main([*args, "--force"]) == 0
    assert len(server.requests) == first_calls
    again = json.loads((stats_work / "stats" / "stats.json").read_text(encoding="utf-8"))
    for name, subset in again["subsets"].items():
        ic = subset["information_coverage"]
        assert ic["cached_calls"] == ic["judge_calls"]
        assert ic["mean"] == data["subsets"][name]["information_coverage"]["mean"]
    # This invocation asked nothing of the model; both invocations together asked each once.
    assert again["usage"]["total"]["model_calls"] == 0
    overall = again["usage"]["all_invocations"]
    assert [i["model_calls"] for i in overall["invocations"]] == [first_calls, 0]
    assert overall["total"]["cache_hits"] == first_calls
    assert f"Usage over all 2 runs on this work directory: {2 * first_calls} calls" in (
        capsys.readouterr().out
    )
    assert (stats_work / "cache" / "llm.sqlite").is_file()


def test_ic_with_a_tiny_model_served_by_transformers(
    stats_demo_build: tuple[Path, Path], stats_work: Path, openai_server: Any
) -> None:
    # A random-weight model: answers are not verdicts, and must be counted as unparseable.
    demo = load_spec(stats_demo_build[0])
    spec = demo.model_copy(
        update={
            "subsets": demo.subsets[:1],
            "llm": LLMConfig(judge=openai_server.role_config(max_tokens=12)),
        }
    )
    seen = openai_server.requests_seen()
    with OpenJudge(spec, stats_work) as judge:
        assert judge.client is not None
        setup = JudgeSetup(judge.client, request_options=judge.request_options(spec))
        result = run_stats(spec, stats_work, judge=setup, ic_samples=2, workers=1)
    ic = result.report.to_json()["subsets"]["S"]["information_coverage"]
    assert ic["computed"] and ic["samples"] == 2
    assert sum(ic["verdicts"].values()) == ic["chunks"] == ic["judge_calls"]
    assert ic["unparseable"] + ic["verdicts"].get("parsed", 0) == ic["chunks"]
    assert "ci95" in ic and "interval_method" in ic
    assert openai_server.requests_seen() - seen == ic["chunks"]
    with OpenJudge(spec, stats_work) as judge:
        assert judge.client is not None
        setup = JudgeSetup(judge.client, request_options=judge.request_options(spec))
        rerun = run_stats(spec, stats_work, judge=setup, ic_samples=2, workers=1, force=True)
    assert openai_server.requests_seen() - seen == ic["chunks"]  # no new call
    assert (
        rerun.report.to_json()["subsets"]["S"]["information_coverage"]["verdicts"] == ic["verdicts"]
    )
