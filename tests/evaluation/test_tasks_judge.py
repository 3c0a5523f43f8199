"""The judge: qa and needles verdicts from a model over HTTP, cached, sampled for people."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lengthwise.evaluation.backends import EngineSettings
from lengthwise.evaluation.judging import JUDGE_CHECK, read_verdict
from lengthwise.evaluation.runner import EvalConfig, run_eval
from lengthwise.evaluation.store import GENERATIONS
from lengthwise.spec import LLMRoleConfig
from lengthwise.storage import read_jsonl
from tests.evaluation.task_answerers import perfect, script
from tests.evaluation.task_instances import make_instances, write_task_release
from tests.fixtures.scripted_openai import Reply, ScriptedOpenAIServer, ok_body


def _always(verdict: str) -> Any:
    def answer(_number: int, body: dict[str, Any]) -> Reply:
        assert "Accepted answers" in body["messages"][-1]["content"]
        return Reply(body=ok_body(verdict))

    return answer


def test_judge_verdicts_score_free_answers_once_and_a_sample_is_kept(
    tiny_release: Path, tmp_path: Path
) -> None:
    instances = make_instances("qa", 8) + make_instances("needles", 10)
    release = write_task_release(tiny_release, tmp_path / "release", instances)
    with ScriptedOpenAIServer(_always("INCORRECT")) as judge:
        config = EvalConfig(
            release=str(release),
            out=tmp_path / "run",
            tasks=["qa", "needles"],
            prompts=["IE"],
            tokenizer="qwen2.5",
            write_report=False,
            judge=LLMRoleConfig(model="judge", base_url=judge.base_url),
            judge_check_share=0.25,
            engine=EngineSettings(backend="scripted", model="perfect"),
        )
        options = {"script": script(instances, perfect)}
        first = run_eval(config, provider_options=options).results
        asked = len(judge.requests)
        again = run_eval(config, provider_options=options).results
        assert len(judge.requests) == asked  # verdicts are on file: nothing is asked twice
    # Judged: qa's abstractive answers (2 of 8) and every needle answer (10).
    assert asked == 2 + 10
    (qa,) = first["tasks"]["qa"]["lengths"]["S"].values()
    assert qa["judge"] == {"incorrect": 2}
    assert qa["by_kind"]["abstractive"] == 0.0  # the judge overrides a perfect token F1
    assert qa["by_kind"]["extractive"] == 100.0
    (needles,) = first["tasks"]["needles"]["lengths"]["S"].values()
    assert needles["mean"] == 0.0 and needles["judge"] == {"incorrect": 10}
    assert again["tasks"] == first["tasks"]
    lines = list(read_jsonl(tmp_path / "run" / GENERATIONS))
    assert len(lines) == len(instances) + asked  # each verdict appended as the pair's last line
    checked = list(read_jsonl(tmp_path / "run" / JUDGE_CHECK))
    assert len(checked) == round(0.25 * asked)
    assert all(row["verdict"] == "incorrect" and row["question"] for row in checked)


def test_verdicts_are_read_conservatively() -> None:
    assert read_verdict("INCORRECT.") == "incorrect"
    assert read_verdict("Correct") == "correct"
    assert read_verdict("错误") == "incorrect"
    assert read_verdict("I am not sure") == "unreadable"
