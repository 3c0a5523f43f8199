"""The shared progress display: one line on stderr per step, nothing when quiet."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from lengthwise.progress import QUIET, ProgressDisplay
from lengthwise.stage_runner import Stage, StagePlan, run_stage


def test_a_step_shows_items_done_of_total_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    display = ProgressDisplay("build", enabled=True, min_interval=0)
    with display.step("books", total=3, unit="book") as step:
        for _ in range(3):
            step.advance()
    err = capsys.readouterr().err
    assert "build: books" in err and "3/3" in err
    assert step.done == 3


def test_quiet_or_not_a_terminal_draws_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    # Under pytest stderr is not a terminal: the display is off even without --quiet.
    assert not ProgressDisplay.for_stage("draft").enabled
    assert not ProgressDisplay.for_stage("draft", quiet=True).enabled
    with ProgressDisplay.for_stage("draft").step("chapters", total=2) as step:
        step.advance(2)
    assert capsys.readouterr().err == "" and step.done == 2


def test_a_new_step_closes_the_previous_one(capsys: pytest.CaptureFixture[str]) -> None:
    display = ProgressDisplay("stats", enabled=True)
    first = display.step("summary statistics", total=1)
    second = display.step("information coverage", total=1)
    assert first._bar is None and second._bar is not None  # one line at a time
    display.close()
    assert second._bar is None


@dataclass
class _CountingStage(Stage[list[int], dict[str, int]]):
    root: Path
    name = "counting"

    def plan(self) -> StagePlan[list[int]]:
        return StagePlan([1, 2, 3], None)

    def compute(self, plan: StagePlan[list[int]]) -> dict[str, int]:
        self.seen = self.display
        with self.display.step("items", total=len(plan.inputs)) as step:
            for _ in plan.inputs:
                step.advance()
        return {"items": step.done}


def test_the_runner_hands_each_run_a_display_and_takes_it_back(tmp_path: Path) -> None:
    stage = _CountingStage(tmp_path)
    run = run_stage(stage, quiet=True)
    assert run.body == {"items": 3}
    assert stage.seen is not QUIET and stage.seen.stage == "counting"
    assert not stage.seen.enabled  # quiet
    assert stage.display is QUIET  # no display outlives its run
