"""`lengthwise tasks SPEC [--work DIR]`, and the task lines `lengthwise build` prints."""

from __future__ import annotations

import argparse
from pathlib import Path

from lengthwise.cli_options import STAGE_OPTIONS, Command
from lengthwise.spec import Spec, load_spec


def build_tasks_and_print(spec: Spec, work_dir: Path) -> None:
    """Run the task stage and print its table lines and problems (shared with `build`)."""
    from lengthwise.builders.tasks.report import closing_lines
    from lengthwise.builders.tasks.stage import run_tasks

    run = run_tasks(spec, work_dir)
    state = "up to date, nothing to do" if run.up_to_date else "built"
    print(f"task families: {state}")
    print(f"tasks:   {run.work.tasks}/")
    print(f"report:  {run.work.tasks_report_md}")
    for line in closing_lines(run.report):
        print(line)


def _tasks(args: argparse.Namespace) -> int:
    from lengthwise.workdir import default_work_dir

    spec = load_spec(args.spec)
    build_tasks_and_print(spec, args.work or default_work_dir(spec))
    return 0


TASKS_COMMAND = Command(
    "tasks",
    help="build the spec's [[tasks]] (task families) from a finished build",
    description=(
        "Build every [[tasks]] entry of the spec (ordering, recall, sections, qa, needles, "
        "incremental, ...) at each of its lengths from the books of the finished build: "
        "WORK/tasks/<task>/<length>.parquet, WORK/tasks/report.json and report.md, and a "
        "'Task families' section in build_report.md. Every context is recounted with the "
        "primary tokenizer; instances outside their interval are dropped with the reason. "
        "`lengthwise build` runs this too when the spec has [[tasks]]."
    ),
    handler=_tasks,
    options=STAGE_OPTIONS,
)
