"""Every task family end to end on a real (tiny, random) model: local and over HTTP.

The tiny model answers nonsense, so scores are near 0 here: these tests check that each
family's prompts are counted, sent, read and scored by a real backend (the local
transformers one, and `transformers serve` through the OpenAI-compatible client), with
every line and table in place. Known scores are checked with the scripted provider.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from lengthwise.evaluation.backends import EngineSettings
from lengthwise.evaluation.runner import EvalConfig, run_eval
from lengthwise.evaluation.store import GENERATIONS
from lengthwise.storage import read_jsonl
from tests.evaluation.task_instances import MAKERS, make_instances, write_task_release

FAMILIES = list(MAKERS)


@pytest.fixture(scope="module")
def task_release(tiny_release: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    instances = [i for family in FAMILIES for i in make_instances(family, 2)]
    return write_task_release(tiny_release, tmp_path_factory.mktemp("models") / "r", instances)


def _check(out: Path, results: dict[str, Any]) -> None:
    assert results["complete"] is True
    assert {t["family"] for t in results["tasks"].values()} == set(FAMILIES)
    for name, table in results["tasks"].items():
        (cell,) = table["lengths"]["S"].values()
        assert cell["planned"] == 1 and cell["missing"] == 0, name
        assert cell["instruction_following_rate"] is not None, name
        if table["family"] != "incremental":
            assert cell["n"] == 1 and 0 <= cell["mean"] <= 100, name
            assert cell["random_baseline"] is not None, name
    lines = list(read_jsonl(out / GENERATIONS))
    assert {line["family"] for line in lines} == set(FAMILIES)
    for line in lines:
        assert {"task", "family", "length", "depth", "fill", "readable"} <= set(line)
        assert line["usage"]["prompt_tokens"] == line["prompt_tokens"]


def test_every_family_on_the_local_tiny_model(
    task_release: Path, tiny_model_dir: Path, tmp_path: Path
) -> None:
    out = tmp_path / "local"
    config = EvalConfig(
        release=str(task_release),
        out=out,
        tasks=FAMILIES,
        prompts=["IE"],
        limit=1,
        default_max_new_tokens=6,
        write_report=True,
        engine=EngineSettings(backend="transformers", model=str(tiny_model_dir), device="cpu"),
    )
    _check(out, run_eval(config).results)
    assert "## Task families" in (out / "report.md").read_text(encoding="utf-8")


def test_every_family_through_an_openai_compatible_server(
    task_release: Path, openai_server: Any, tmp_path: Path
) -> None:
    out = tmp_path / "served"
    config = EvalConfig(
        release=str(task_release),
        out=out,
        tasks=FAMILIES,
        prompts=["IB"],
        limit=1,
        default_max_new_tokens=6,
        write_report=False,
        engine=EngineSettings(
            backend="openai",
            model=openai_server.model,
            base_url=openai_server.base_url,
            concurrency=1,
        ),
    )
    before = openai_server.requests_seen()
    _check(out, run_eval(config).results)
    assert openai_server.requests_seen() - before == len(FAMILIES)
