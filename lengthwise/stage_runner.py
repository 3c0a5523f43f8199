"""One runner for every stage: the skeleton each stage used to repeat, written once.

A stage (build, probe, draft, stats, release, eval) is a subclass of `Stage` that says
three things and nothing else:

- ``plan()``: read its inputs and return a `StagePlan`: the fingerprint of everything
  that decides its outputs, the output files, and the inputs handed to ``compute``;
- ``compute(plan)``: do the work, write the outputs (atomically, see lengthwise.storage)
  and return the report body: kept/dropped with reasons, warnings, usage. A typed body
  is a dataclass with ``to_json()`` (`lengthwise.json_records.JsonRecord`); the stage
  then also says how to read it back (``read_body``) and renders it (``render_body``);
- ``render(report)``: the human-readable report (markdown) from the JSON report, for a
  stage whose body is a plain dict.

While it computes, a stage reports its steps' progress into ``self.display`` (one
shared `ProgressDisplay` per run, see lengthwise.progress).

`run_stage` does the rest, in this order, for every stage alike:

1. take the stage's lock (`StageLock`: one run per folder at a time);
2. remove what killed runs left (``clear_leftovers``, under the lock);
3. plan; when a completion record matches the fingerprint and every output's hash
   (`CompletionRecord.is_current`), return the previous report: up to date;
4. compute, add the envelope (tool version, fingerprint, seconds), write the markdown
   report then the JSON report;
5. write the completion record last: a kill before it means the stage runs again. It
   holds the sha256 of the planned outputs, the reports and every other file compute
   wrote in the stage's folder (lengthwise.written_files), caches and bookkeeping aside.

Stages stay plain functions over records: `compute` gets its inputs from the plan, so a
stage can be run elsewhere (a later issue runs them on Ray) with the runner around it.
"""

from __future__ import annotations

import json
import logging
import os
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, Protocol, cast, runtime_checkable

from typing_extensions import TypeVar

from lengthwise import __version__
from lengthwise.json_records import validate_json
from lengthwise.progress import QUIET, ProgressDisplay
from lengthwise.stage_state import (
    LOCKS,
    SCRATCH,
    STATE,
    CompletionRecord,
    StageLock,
    crash_point,
    is_complete,
    remove_abandoned_scratch,
    remove_leftovers,
)
from lengthwise.storage import atomic_write_json, atomic_write_text, read_json
from lengthwise.written_files import recording_writes

log = logging.getLogger(__name__)

InputsT = TypeVar("InputsT")
# The report body compute returns: a typed record (ReportBody) or, by default, a dict.
BodyT = TypeVar("BodyT", default=dict[str, Any])


@runtime_checkable
class ReportBody(Protocol):
    """A typed report body: its JSON object is what the report file holds."""

    def to_json(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Envelope:
    """The fields the runner adds to every report: tool version, fingerprint, seconds."""

    tool_version: str = __version__
    fingerprint: str | None = None
    seconds: float | None = None

    @classmethod
    def of(cls, report: dict[str, Any]) -> Envelope:
        """The envelope of a report as written (None where a field is absent)."""
        seconds = report.get("seconds")
        return cls(
            str(report.get("tool_version", __version__)),
            report.get("fingerprint"),
            float(seconds) if isinstance(seconds, int | float) else None,
        )


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
class StageRun(Generic[BodyT]):
    """The report a stage wrote (or found up to date) and whether it computed.

    `report` is the JSON report as written (envelope included), `body` the stage's typed
    body (read back from the file when up to date).
    """

    report: dict[str, Any]
    up_to_date: bool
    seconds: float
    body: BodyT

    @property
    def envelope(self) -> Envelope:
        return Envelope.of(self.report)


class Stage(ABC, Generic[InputsT, BodyT]):
    """Subclass, set `name` and `root` (the folder holding locks/ and state/), and the
    report paths; see the module docstring for what the runner does around it."""

    name: str
    root: Path
    report_json: Path | None = None
    report_markdown: Path | None = None
    # False when the report is itself released (stats.json is copied into the release and
    # checksummed there): a timing would make two identical runs give different files.
    timed: bool = True
    # Set by run_stage for the run; steps report into it (see lengthwise.progress).
    display: ProgressDisplay = QUIET
    # The typed body's record (a JsonRecord): how a report read back from its file is
    # parsed when the stage is up to date; None for a plain dict body.
    body_type: type[BodyT] | None = None

    def clear_leftovers(self) -> None:
        """Remove temporary files killed runs left; called under the stage's lock."""
        for removed in remove_leftovers(self.root):
            log.info("removed %s (left by an interrupted %s)", removed, self.name)

    @abstractmethod
    def plan(self) -> StagePlan[InputsT]: ...

    @abstractmethod
    def compute(self, plan: StagePlan[InputsT]) -> BodyT: ...

    def render(self, report: dict[str, Any]) -> str:
        raise NotImplementedError(f"stage {self.name} sets report_markdown but has no render()")

    def render_body(self, body: BodyT, envelope: Envelope) -> str:
        """The markdown report; a stage with a typed body overrides this, not `render`."""
        return self.render(envelope_json(_body_json(body), envelope))

    def read_body(self, report: dict[str, Any]) -> BodyT:
        """The body of a report read back from its file (up to date), as `body_type`."""
        if self.body_type is None:
            return cast(BodyT, report)
        return validate_json(self.body_type, report, str(self.report_json))

    def report_files(self) -> list[Path]:
        return [p for p in (self.report_markdown, self.report_json) if p is not None]


def run_stage(stage: Stage[InputsT, BodyT], *, quiet: bool = False) -> StageRun[BodyT]:
    """Run `stage` under its lock; skip it when its completion record is current.

    `quiet` (the commands' --quiet) turns the progress display off; it is off anyway when
    stderr is not a terminal.
    """
    with StageLock(stage.root, stage.name):
        stage.display = ProgressDisplay.for_stage(stage.name, quiet)
        try:
            return _run_locked(stage)
        finally:
            stage.display.close()
            stage.display = QUIET


def _run_locked(stage: Stage[InputsT, BodyT]) -> StageRun[BodyT]:
    stage.clear_leftovers()
    remove_abandoned_scratch(stage.root)  # temporary folders of killed runs (FOLDER/tmp)
    started = time.perf_counter()
    plan = stage.plan()
    outputs = [*plan.outputs, *stage.report_files()]
    if _up_to_date(stage, plan, outputs):
        assert stage.report_json is not None  # checked by _up_to_date
        log.info("%s is up to date (%s)", stage.name, stage.report_json)
        report = read_json(stage.report_json)
        return StageRun(report, True, time.perf_counter() - started, stage.read_body(report))
    with recording_writes() as written:
        body = stage.compute(plan)
    stage.display.close()
    crash_point(f"{stage.name}:computed")  # test hooks (LENGTHWISE_CRASH_AT)
    seconds = time.perf_counter() - started
    report = _write_report(stage, plan, body, seconds)
    crash_point(f"{stage.name}:reported")
    if plan.fingerprint is not None:
        # Last: the outputs' hashes mark the stage complete for this fingerprint: the
        # planned ones and every other file compute wrote in the stage's folder.
        recorded = [*outputs, *_written_outputs(stage.root, written)]
        CompletionRecord.write(stage.root, stage.name, plan.fingerprint, recorded)
    return StageRun(report, False, seconds, body)


# Folders whose files are no stage's output: caches verify their own entries, the
# others are bookkeeping (records, locks, usage journals) and scratch space.
_NOT_OUTPUTS = ("cache", LOCKS, STATE, SCRATCH)


def _written_outputs(root: Path, written: set[Path]) -> list[Path]:
    """The files compute wrote inside `root` (outside its caches and bookkeeping) that
    still exist, as paths under `root` (the form CompletionRecord.write expects)."""
    base = Path(os.path.abspath(root))
    found = []
    for path in written:
        try:
            relative = Path(os.path.abspath(path)).relative_to(base)
        except ValueError:
            continue  # another folder's file (a release's own folder, a user's --out)
        if relative.parts[0] not in _NOT_OUTPUTS and (root / relative).is_file():
            found.append(root / relative)
    return found


def _up_to_date(
    stage: Stage[InputsT, BodyT], plan: StagePlan[InputsT], outputs: list[Path]
) -> bool:
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
    head = Envelope(str(report.get("tool_version", __version__)), fingerprint, seconds)
    return envelope_json(report, head)


def envelope_json(body: dict[str, Any], head: Envelope) -> dict[str, Any]:
    """`body` inside `head`: tool version and fingerprint first, seconds (rounded) last."""
    inner = {k: v for k, v in body.items() if k not in ("tool_version", "fingerprint")}
    first: dict[str, Any] = {"tool_version": head.tool_version}
    if head.fingerprint is not None:
        first["fingerprint"] = head.fingerprint
    last = {"seconds": round(head.seconds, 3)} if head.seconds is not None else {}
    return {**first, **inner, **last}


def _body_json(body: object) -> dict[str, Any]:
    if isinstance(body, ReportBody):
        return body.to_json()
    assert isinstance(body, dict), f"a report body is a dict or has to_json(), not {body!r}"
    return body


def _write_report(
    stage: Stage[InputsT, BodyT], plan: StagePlan[InputsT], body: BodyT, seconds: float
) -> dict[str, Any]:
    """Write the markdown then the JSON report; return the JSON report (the dict body of
    a plain stage is updated in place, as its callers expect)."""
    raw = _body_json(body)
    if stage.report_json is None:
        return raw
    head = Envelope(str(raw.get("tool_version", __version__)), plan.fingerprint, seconds)
    if not stage.timed:
        head = Envelope(head.tool_version, head.fingerprint, None)
    # NaN/inf are not JSON: refuse them here rather than write a file others cannot read.
    full: dict[str, Any] = json.loads(json.dumps(envelope_json(raw, head), allow_nan=False))
    if isinstance(body, dict):
        body.clear()
        body.update(full)
    if stage.report_markdown is not None:
        rounded = Envelope(head.tool_version, head.fingerprint, full.get("seconds"))
        atomic_write_text(stage.report_markdown, stage.render_body(body, rounded))
    atomic_write_json(stage.report_json, full)
    return full
