"""build_report.md's "Task families" section, added after the task stage ran.

The build stage renders build_report.md before the tasks are built, and its completion
record holds the file's hash. Appending the section therefore re-renders the build's
report from build_report.json plus the tasks report and re-records the build's outputs,
under the build's lock, only when every other output is still the one the build wrote:
a finished samples build stays up to date when only [[tasks]] change.
"""

from __future__ import annotations

from pathlib import Path

from lengthwise.builders.build_record import read_build_report
from lengthwise.builders.build_report import render_build_report
from lengthwise.builders.tasks.report import task_section_markdown
from lengthwise.builders.tasks.report_record import TasksReport
from lengthwise.stage_state import CompletionRecord, StageLock
from lengthwise.storage import atomic_write_text
from lengthwise.workdir import WorkDir

BUILD_STAGE = "build"  # BuildStage.name


def build_report_with_tasks(work: WorkDir, tasks_report: TasksReport) -> str:
    build = read_build_report(work)
    rendered = render_build_report(build.body, build.envelope)
    return rendered + "\n" + task_section_markdown(tasks_report) + "\n"


def add_task_section(work: WorkDir, tasks_report: TasksReport) -> bool:
    """Rewrite build_report.md with the section; False when there is no current build."""
    if not work.build_report.is_file():
        return False
    with StageLock(work.root, BUILD_STAGE):
        record = CompletionRecord.load(work.root, BUILD_STAGE)
        if record is None or record.stale_outputs():
            return False  # the next `lengthwise build` rebuilds and renders it anyway
        text = build_report_with_tasks(work, tasks_report)
        markdown = work.build_report_md
        if markdown.is_file() and markdown.read_text(encoding="utf-8") == text:
            return True
        atomic_write_text(markdown, text)
        outputs = [work.root / Path(relative) for relative in record.outputs]
        CompletionRecord.write(work.root, BUILD_STAGE, record.fingerprint, outputs, record.extra)
    return True
