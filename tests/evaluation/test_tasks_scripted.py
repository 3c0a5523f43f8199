"""Every task family end to end with the `scripted` provider: known answers, known scores.

A perfect answerer scores 100 on every scorable family; a model answering at random
scores near the random-guess baseline the evaluator reports; every line says which
task, family, length, depth and fill it belongs to.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from lengthwise.evaluation.backends import EngineSettings
from lengthwise.evaluation.runner import EvalConfig, run_eval
from lengthwise.evaluation.store import GENERATIONS
from lengthwise.evaluation.tasks.ordering import expected_lcs_ratio
from lengthwise.llm.types import ChatRequest, ChatResult
from lengthwise.storage import read_json, read_jsonl
from lengthwise.task_records import TaskInstance
from tests.evaluation.task_answerers import at_random, perfect, script
from tests.evaluation.task_instances import MAKERS, make_instances, write_task_release

SCORED = ["ordering", "synopsis-ordering", "recall", "sections", "qa", "needles"]


def _config(release: Path, out: Path, tasks: list[str], **options: Any) -> EvalConfig:
    return EvalConfig(
        release=str(release),
        out=out,
        tasks=tasks,
        tokenizer="qwen2.5",
        engine=EngineSettings(backend="scripted", model="task-answerer"),
        **options,
    )


@pytest.fixture(scope="module")
def perfect_set(
    tiny_release: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, list[TaskInstance]]:
    instances = [i for family in MAKERS for i in make_instances(family, 8)]
    folder = tmp_path_factory.mktemp("tasks") / "release"
    return write_task_release(tiny_release, folder, instances), instances


def _cells(results: dict[str, Any], task: str) -> list[dict[str, Any]]:
    lengths = results["tasks"][task]["lengths"]
    return [cell for by_prompt in lengths.values() for cell in by_prompt.values()]


def test_a_perfect_answerer_scores_100_on_every_family(
    perfect_set: tuple[Path, list[TaskInstance]], tmp_path: Path
) -> None:
    release, instances = perfect_set
    families = [*SCORED, "incremental"]
    run = run_eval(
        _config(release, tmp_path / "run", families),
        provider_options={"script": script(instances, perfect)},
    )
    results = run.results
    assert results["complete"] is True
    assert results["results"] == {}  # no summary subset was asked for
    for family in SCORED:
        task = family.replace("-", "_")
        assert results["tasks"][task]["family"] == family
        for cell in _cells(results, task):
            assert cell["n"] == cell["planned"] == 8
            assert cell["mean"] == pytest.approx(100.0), family
            assert cell["instruction_following_rate"] == pytest.approx(100.0), family
            assert cell["unreadable_rate"] == pytest.approx(0.0), family
            assert cell["random_baseline"] is not None and cell["random_baseline"] < 60, family
            if family == "ordering":
                # right answers are no copies, even where the example is the answer
                assert cell["copy_example_rate"] == pytest.approx(0.0)
                assert cell["metrics"]["kendall_tau"] == pytest.approx(100.0)
                assert cell["random_baseline"] == pytest.approx(100 / math.factorial(4))
            if family == "synopsis-ordering":
                assert cell["random_baseline"] == pytest.approx(100 * expected_lcs_ratio(5))
            if family == "sections":
                assert [cell["metrics"][f"section_{k}"] for k in (1, 2, 3)] == pytest.approx(
                    [100.0] * 3
                )
            if family == "qa":
                assert set(cell["by_kind"]) == {
                    "extractive",
                    "yes-no",
                    "unanswerable",
                    "abstractive",
                }
                assert cell["judge"] == {}  # no judge: abstractive answers scored by token F1
            if family == "needles":
                # depth in fifths of the context, not one row per raw value
                fifths = {"0.0-0.2", "0.2-0.4", "0.4-0.6", "0.6-0.8", "0.8-1.0"}
                assert set(cell["by_depth"]) == fifths
    incremental = _cells(results, "incremental")[0]
    assert incremental["mean"] is None and incremental["n"] == 0
    assert incremental["outcomes"] == {"ok": 8}
    assert results["unscorable_samples"] == {"incremental-S": 8}

    lines = list(read_jsonl(tmp_path / "run" / GENERATIONS))
    assert len(lines) == 2 * len(instances)  # IB and IE for every instance
    by_id = {i.id: i for i in instances}
    for line in lines:
        instance = by_id[line["sample_id"]]
        assert line["task"] == instance.task and line["family"] == instance.family
        assert line["subset"] == f"{instance.task}-S" and line["length"] == "S"
        assert (line["depth"], line["fill"]) == (instance.depth, instance.fill)
    report = (tmp_path / "run" / "report.md").read_text(encoding="utf-8")
    assert "## Task families" in report and "instruction following" in report


@pytest.mark.parametrize(
    ("family", "count", "tolerance"),
    [
        ("ordering", 400, 3.5),
        ("synopsis-ordering", 150, 5.0),
        ("recall", 100, 5.0),
        ("sections", 60, 6.0),
        ("qa", 120, 8.0),
        ("needles", 300, 5.0),
    ],
)
def test_a_random_answerer_scores_near_the_random_baseline(
    tiny_release: Path, tmp_path: Path, family: str, count: int, tolerance: float
) -> None:
    instances = make_instances(family, count, seed=7)
    release = write_task_release(tiny_release, tmp_path / "release", instances)
    run = run_eval(
        _config(release, tmp_path / "run", [family], prompts=["IE"], write_report=False),
        provider_options={"script": script(instances, at_random, seed=11)},
    )
    (cell,) = _cells(run.results, family.replace("-", "_"))
    assert cell["n"] == count
    assert cell["mean"] == pytest.approx(cell["random_baseline"], abs=tolerance)
    assert cell["mean"] < 60  # far from a perfect score
    if family == "ordering":
        assert cell["metrics"]["kendall_tau"] == pytest.approx(0.0, abs=10.0)


def test_summarization_mixed_with_tasks_keeps_its_results(
    perfect_set: tuple[Path, list[TaskInstance]],
    release_rows: dict[str, list[dict[str, object]]],
    tmp_path: Path,
) -> None:
    release, instances = perfect_set
    ordering = [i for i in instances if i.family == "ordering"]
    contexts = [row for rows in release_rows.values() for row in rows]
    answer_task = script(ordering, perfect)

    def both(request: ChatRequest) -> ChatResult:
        prompt = request.messages[-1].content
        if any(i.context in prompt for i in ordering):
            return answer_task(request)
        found = [r for r in contexts if str(r["context"]) in prompt]
        row = max(found, key=lambda r: len(str(r["context"])))
        return ChatResult(text=str(row["summary"]), outcome="ok", model="scripted")

    alone = run_eval(
        _config(release, tmp_path / "alone", ["summarization"]), provider_options={"script": both}
    )
    mixed = run_eval(
        _config(release, tmp_path / "mixed", ["summarization", "ordering"]),
        provider_options={"script": both},
    )
    assert mixed.results["results"] == alone.results["results"]
    assert mixed.results["analysis"] == alone.results["analysis"]
    assert mixed.results["subset_order"] == alone.results["subset_order"] == ["S", "M"]
    assert set(mixed.results["tasks"]) == {"summarization", "ordering"}
    assert set(alone.results["tasks"]) == {"summarization"}
    summary = _cells(alone.results, "summarization")[0]
    assert summary["mean"] == pytest.approx(100.0)
    assert summary["random_baseline"] is not None and summary["random_baseline"] < 100
    assert summary["copy_example_rate"] is None  # the summary prompts show no example
    assert read_json(tmp_path / "mixed" / "run.json")["fingerprint"]["tasks"] == [
        "summarization",
        "ordering",
    ]
