"""One runner for every stage: the skeleton each stage used to repeat, written once.

A stage (build, probe, draft, stats, release, eval) is a subclass of `Stage` that says
three things and nothing else:

- ``plan()``: read its inputs and return a `StagePlan`: the fingerprint of everything
  that decides its outputs, the output files, and the inputs handed to ``compute``;
- ``compute(plan)``: do the work, write the outputs (atomically, see lengthwise.storage)
  and return the report body: kept/dropped with reasons, warnings, usage;
- ``render(report)``: the human-readable report (markdown), when the stage has one.

`run_stage` does the rest, in this order, for every stage alike:

1. take the stage's lock (`StageLock`: one run per folder at a time);
2. remove what killed runs left (``clear_leftovers``, under the lock);
3. plan; when a completion record matches the fingerprint and every output's hash
   (`CompletionRecord.is_current`), return the previous report: up to date;
4. compute, add the envelope (tool version, fingerprint, seconds), write the markdown
   report then the JSON report;
5. write the completion record last: a kill before it means the stage runs again.

Stages stay plain functions over records: `compute` gets its inputs from the plan, so a
stage can be run elsewhere (a later issue runs them on Ray) with the runner around it.
"""

from __future__ import annotations

import json
import logging
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

from lengthwise import __version__
from lengthwise.stage_state import (
    CompletionRecord,
    StageLock,
    crash_point,
    is_complete,
    remove_leftovers,
)
from lengthwise.storage import atomic_write_json, atomic_write_text, read_json

log = logging.getLogger(__name__)

InputsT = TypeVar("InputsT")


@dataclass
class StagePlan(Generic[InputsT]):
    """What one run of a stage will do.

    ``fingerprint=None`` marks a stage that resumes by itself (eval, release): it always
    computes and writes no completion record.
    """

    inputs: InputsT
    fingerprint: str | None
    outputs: list[Path] = field(default_factory=list)
    rerun: bool = False  # compute even when complete (pending work, --force, failed calls)


@dataclass
class StageRun:
    """The report a stage wrote (or found up to date) and whether it computed."""

    report: dict[str, Any]
    up_to_date: bool
    seconds: float


class Stage(ABC, Generic[InputsT]):
    """Subclass, set `name` and `root` (the folder holding locks/ and state/), and the
    report paths; see the module docstring for what the runner does around it."""

    name: str
    root: Path
    report_json: Path | None = None
    report_markdown: Path | None = None
    # False when the report is itself released (stats.json is copied into the release and
    # checksummed there): a timing would make two identical runs give different files.
    timed: bool = True

    def clear_leftovers(self) -> None:
        """Remove temporary files killed runs left; called under the stage's lock."""
        for removed in remove_leftovers(self.root):
            log.info("removed %s (left by an interrupted %s)", removed, self.name)

    @abstractmethod
    def plan(self) -> StagePlan[InputsT]: ...

    @abstractmethod
    def compute(self, plan: StagePlan[InputsT]) -> dict[str, Any]: ...

    def render(self, report: dict[str, Any]) -> str:
        raise NotImplementedError(f"stage {self.name} sets report_markdown but has no render()")

    def report_files(self) -> list[Path]:
        return [p for p in (self.report_markdown, self.report_json) if p is not None]


def run_stage(stage: Stage[InputsT]) -> StageRun:
    """Run `stage` under its lock; skip it when its completion record is current."""
    with StageLock(stage.root, stage.name):
        stage.clear_leftovers()
        started = time.perf_counter()
        plan = stage.plan()
        outputs = [*plan.outputs, *stage.report_files()]
        if _up_to_date(stage, plan, outputs):
            assert stage.report_json is not None  # checked by _up_to_date
            log.info("%s is up to date (%s)", stage.name, stage.report_json)
            report = read_json(stage.report_json)
            return StageRun(report, True, time.perf_counter() - started)
        report = stage.compute(plan)
        crash_point(f"{stage.name}:computed")  # test hooks (LENGTHWISE_CRASH_AT)
        seconds = time.perf_counter() - started
        _write_report(stage, plan, report, seconds)
        crash_point(f"{stage.name}:reported")
        if plan.fingerprint is not None:
            # Last: the outputs' hashes mark the stage complete for this fingerprint.
            CompletionRecord.write(stage.root, stage.name, plan.fingerprint, outputs)
        return StageRun(report, False, seconds)


def _up_to_date(stage: Stage[InputsT], plan: StagePlan[InputsT], outputs: list[Path]) -> bool:
    return (
        plan.fingerprint is not None
        and not plan.rerun
        and stage.report_json is not None
        and is_complete(stage.root, stage.name, plan.fingerprint, outputs)
    )


def envelope(
    report: dict[str, Any], fingerprint: str | None, seconds: float | None
) -> dict[str, Any]:
    """The fields every report carries: tool version and fingerprint first, seconds last."""
    body = {k: v for k, v in report.items() if k not in ("tool_version", "fingerprint")}
    head: dict[str, Any] = {"tool_version": report.get("tool_version", __version__)}
    if fingerprint is not None:
        head["fingerprint"] = fingerprint
    tail = {"seconds": round(seconds, 3)} if seconds is not None else {}
    return {**head, **body, **tail}


def _write_report(
    stage: Stage[InputsT], plan: StagePlan[InputsT], report: dict[str, Any], seconds: float
) -> None:
    if stage.report_json is None:
        return
    full = envelope(report, plan.fingerprint, seconds if stage.timed else None)
    # NaN/inf are not JSON: refuse them here rather than write a file others cannot read.
    full = json.loads(json.dumps(full, allow_nan=False))
    report.clear()
    report.update(full)
    if stage.report_markdown is not None:
        atomic_write_text(stage.report_markdown, stage.render(report))
    atomic_write_json(stage.report_json, report)
