"""A run of every released task family, as a researcher opens it: report.md and the
viewer in headless Chromium show each task's scores, plots and what a sample needs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from matplotlib import image

from lengthwise.cli import main
from lengthwise.evaluation.backends import EngineSettings
from lengthwise.evaluation.runner import EvalConfig, run_eval
from lengthwise.storage import read_json
from tests.evaluation.task_answerers import at_random, script
from tests.evaluation.task_instances import MAKERS, make_instances, write_task_release
from tests.evaluation.viewer.browser import chromium

pytestmark = pytest.mark.slow


def coloured_marks(path: Path) -> float:
    """Share of strongly coloured pixels (lines, bars; not axes, grid or text)."""
    rgb = image.imread(path)[..., :3]
    return float(np.mean((rgb.max(axis=2) - rgb.min(axis=2)) > 0.25))


@pytest.fixture(scope="module")
def task_run(tiny_release: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(run folder, report folder) of a random answerer on every family, IB and IE."""
    root = tmp_path_factory.mktemp("task-viewer")
    instances = [i for family in MAKERS for i in make_instances(family, 6)]
    release = write_task_release(tiny_release, root / "release", instances)
    config = EvalConfig(
        release=str(release),
        out=root / "run",
        tasks=list(MAKERS),
        tokenizer="qwen2.5",
        engine=EngineSettings(backend="scripted", model="random-reader"),
    )
    run_eval(config, provider_options={"script": script(instances, at_random)})
    out = root / "report"
    assert main(["report", "--html", str(root / "run"), "--out", str(out)]) == 0
    return root / "run", out


def _cells(results: dict[str, Any]) -> dict[tuple[str, str, str], dict[str, Any]]:
    return {
        (task, cell["config"], prompt): cell
        for task, table in results["tasks"].items()
        for by_prompt in table["lengths"].values()
        for prompt, cell in by_prompt.items()
    }


def test_the_report_and_its_plots_show_every_task(task_run: tuple[Path, Path]) -> None:
    run, out = task_run
    results = read_json(run / "results.json")
    report = (out / "report.md").read_text(encoding="utf-8")
    ordering = results["tasks"]["ordering"]["lengths"]["S"]["IB"]
    assert f"{ordering['mean']:.2f} [{ordering['ci'][0]:.2f}, {ordering['ci'][1]:.2f}]" in report
    # IB and IE were both scored on every scored task: the report compares them per task.
    assert "No run scored both IB and IE" not in report
    for task in ("ordering", "synopsis_ordering", "recall", "sections", "qa"):
        assert f", {task}: MSD" in report, task
    assert "not scored: the task has no references" in report  # incremental, said why
    for plot in ("scores_by_length.png", "outcome_shares.png"):
        assert coloured_marks(out / plot) > 0.0005, plot  # drawn marks, not bare axes


def test_the_viewer_shows_every_task_row_and_each_sample_needs(
    task_run: tuple[Path, Path], tmp_path: Path
) -> None:
    run, out = task_run
    expected = _cells(read_json(run / "results.json"))
    assert {task for task, _, _ in expected} == {f.replace("-", "_") for f in MAKERS}
    with chromium(tmp_path / "profile") as driver:
        driver.get((out / "report.html").as_uri())
        rows = [
            r
            for r in driver.find_elements("css selector", "#score-table tr.score-row")
            if r.is_displayed()
        ]
        shown = driver.find_element("id", "shown-count").text
        assert shown == f"{len(expected)} score rows shown" and len(rows) == len(expected)
        for row in rows:
            task = row.find_element("css selector", ".c-task").text
            subset = row.find_element("css selector", ".c-subset").text
            cell = expected[(task, subset, row.get_attribute("data-prompt"))]
            mean = row.find_element("css selector", ".c-mean").text
            assert mean == ("–" if cell["mean"] is None else f"{cell['mean']:.2f}"), task
            guess = row.find_element("css selector", ".c-random").text
            assert guess == (
                "–" if cell["random_baseline"] is None else f"{cell['random_baseline']:.2f}"
            )
            if cell["mean"] is None:
                assert row.find_element("css selector", ".c-note").text, task  # says why
        images = driver.find_elements("css selector", "#plots img")
        assert len(images) >= 2 and all(
            driver.execute_script("return arguments[0].naturalWidth", i) > 300 for i in images
        )

        def panel_of(task: str) -> Any:
            row = next(
                r
                for r in driver.find_elements("css selector", "#sample-table tr.sample-row")
                if r.get_attribute("data-task") == task
            )
            row.click()
            return driver.find_element("id", "sample-panel")

        panel = panel_of("needles")
        assert panel.find_element("css selector", ".panel-question").text.endswith("?") or (
            panel.find_element("css selector", ".panel-question").text.endswith("？")
        )
        assert "evidence depth" in panel.find_element("css selector", ".panel-facts").text
        assert "Needle" in panel.text and "Reference (empty)" not in panel.text
        assert panel.find_element("css selector", ".panel-reference").text.isdigit()
        panel = panel_of("ordering")
        facts = panel.find_element("css selector", ".panel-facts").text
        assert "true order: [" in facts and "answered order:" in facts
        severe = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert severe == [], severe
