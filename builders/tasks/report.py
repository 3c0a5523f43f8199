"""The task stage's report in words: an Ada-LEval-like table (task, family, length,
instances, target, mean tokens), tasks not built with the reason, and every drop with
its reason. The same lines go into WORK/tasks/report.md, build_report.md's "Task
families" section and the end of `lengthwise build` / `lengthwise tasks`."""

from __future__ import annotations

from lengthwise.builders.tasks.report_record import TaskLengthReport, TasksReport
from lengthwise.builders.tasks.shortcut_record import MARGIN


def _mean(value: float | None) -> str:
    return "-" if value is None else f"{value:,.0f}"


def _largest(length: TaskLengthReport) -> str:
    """The book giving the most instances and its share ("-" without instances)."""
    if not length.largest_book or not length.instances:
        return "-"
    share = length.largest_book_instances / length.instances
    return f"{length.largest_book} {length.largest_book_instances} ({share:.0%})"


def task_table(report: TasksReport) -> list[str]:
    lines = [
        "| task | family | length | instances | requested | target | interval "
        "| mean tokens | books | largest book | fill series |",
        "|---|---|---|---:|---:|---:|---|---:|---:|---|---:|",
    ]
    for task in report.tasks:
        for length in task.lengths:
            lines.append(
                f"| {task.name} | {task.family} | {length.name} "
                f"| {length.instances} | {length.requested} | {length.target:,} "
                f"| [{length.lower:,}, {length.upper:,}] | {_mean(length.mean_tokens)} "
                f"| {length.books} | {_largest(length)} | {length.fill_instances or '-'} |"
            )
    return lines


def shortcut_table(report: TasksReport) -> list[str]:
    """Every no-model baseline per task and length beside random (x100), with the
    instances it solves outright; [] when no family has baselines."""
    rows = [
        f"| {task.name} | {length.name} | {s.name} | {s.score:.1f} | {s.random:.1f} "
        f"| {s.over_random:+.1f} | {s.solved} of {s.instances} |"
        for task in report.tasks
        for length in task.lengths
        for s in length.shortcuts
    ]
    if not rows:
        return []
    return [
        f"Shortcut checks (no model; scores x100; the best should stay within "
        f"{MARGIN:g} points of random):",
        "",
        "| task | length | baseline | score | random | over random | solved |",
        "|---|---|---|---:|---:|---:|---:|",
        *rows,
        "",
    ]


def not_built_lines(report: TasksReport) -> list[str]:
    """One line per task that could not be built (the reason is the same at every length)."""
    lines = []
    for task in report.tasks:
        reasons = sorted({n for length in task.lengths if (n := length.not_built)})
        lines += [f"{task.name} ({task.family}): not built: {reason}" for reason in reasons]
    return lines


def drop_lines(report: TasksReport, examples: int = 3) -> list[str]:
    """Every drop reason per task and length, with its count and a few instances named."""
    lines = []
    for task in report.tasks:
        for length in task.lengths:
            for reason, count in length.dropped.items():
                named = length.examples.get(reason, [])[:examples]
                shown = f" (e.g. {'; '.join(named)})" if named else ""
                lines.append(f"{task.name} {length.name}: {count} x {reason}{shown}")
    return lines


def short_lines(report: TasksReport) -> list[str]:
    lines = []
    for task in report.tasks:
        for length in task.lengths:
            if length.instances < length.requested and not length.not_built:
                lines.append(
                    f"{task.name} {length.name}: short: {length.instances} of "
                    f"{length.requested} requested instances"
                )
    return lines


def task_section_markdown(report: TasksReport, heading: str = "## Task families") -> str:
    """The "Task families" section of build_report.md and of WORK/tasks/report.md."""
    lines = [heading, ""]
    lines.append(
        f"Lengths in `{report.primary_tokenizer}` tokens, recounted independently after "
        f"building; seed {report.seed}; {report.books} books, "
        f"{report.synopses} chapter synopses"
        + (f", questions by `{report.drafter}`" if report.drafter else "")
        + "."
    )
    lines += ["", *task_table(report), ""]
    if any(length.fill_instances for t in report.tasks for length in t.lengths):
        lines += [
            "Mean tokens leave out the fill series (needles), which fill only a share of "
            "the window; `instances` counts them.",
            "",
        ]
    lines += shortcut_table(report)
    missing = not_built_lines(report)
    lines += [f"Not built ({len(missing)}):" if missing else "Not built: none."]
    lines += [f"- {line}" for line in missing]
    short = short_lines(report)
    if short:
        lines += ["", f"Short ({len(short)}):", *(f"- {line}" for line in short)]
    drops = drop_lines(report)
    lines += ["", f"Dropped ({len(drops)} reasons):" if drops else "Dropped: none."]
    lines += [f"- {line}" for line in drops]
    skipped = report.synopses_skipped
    if skipped:
        lines += ["", "Chapter drafts not used as synopses: "]
        lines[-1] += ", ".join(f"{count} x {reason}" for reason, count in skipped.items()) + "."
    return "\n".join(lines)


def render_tasks_report(report: TasksReport) -> str:
    title = f"# Task families: {report.spec}"
    return title + "\n\n" + task_section_markdown(report, "## Tasks") + "\n"


def closing_lines(report: TasksReport) -> list[str]:
    """What `lengthwise build` and `lengthwise tasks` print about the task families."""
    lines = []
    for task in report.tasks:
        for length in task.lengths:
            lines.append(
                f"  {task.name} {length.name} ({task.family}): {length.instances} "
                f"of {length.requested} instances, mean {_mean(length.mean_tokens)} tokens"
            )
    problems = not_built_lines(report) + short_lines(report) + drop_lines(report, examples=1)
    lines.append(f"task problems: {len(problems) or 'none'}")
    lines += [f"  {line}" for line in problems]
    return lines
