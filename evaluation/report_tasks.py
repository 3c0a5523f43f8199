"""report.md's task-family section: each task's table beside its references.

For every task in any run (summarization included): per run, length and prompt, the
score with its interval, the random-guess baseline, the instruction-following and
copy-the-example rates (Ada-LEval's columns), the secondary metrics and the outcomes;
then scores by evidence depth, distractor fill and question kind where instances
carry them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lengthwise.evaluation.report import RunView


def _mapping(value: object) -> Mapping[str, object]:
    return value if isinstance(value, Mapping) else {}


def _fmt(value: object) -> str:
    return f"{value:.2f}" if isinstance(value, int | float) else "–"


def _pairs(values: object) -> str:
    return (
        ", ".join(
            f"{k} {_fmt(v) if isinstance(v, float) else v}" for k, v in _mapping(values).items()
        )
        or "–"
    )


def _rows(run: RunView, task: str, described: Mapping[str, object]) -> list[str]:
    """The run's cells of `task` (score, random guess, rates, outcomes: the score cells),
    with the secondary metrics and groups results.json keeps beside them."""
    rows: list[str] = []
    lengths = _mapping(described.get("lengths"))
    for cell in (c for c in run.cells if c.task == task):
        raw = _mapping(_mapping(lengths.get(cell.length)).get(cell.prompt))
        score = f"{cell.score_text} (n={cell.n})" if cell.mean is not None else cell.score_text
        rows.append(
            f"| {run.label} | {cell.length} | {cell.prompt} | {score} | "
            f"{_fmt(cell.random_guess)} | {_fmt(cell.instruction_following)} | "
            f"{_fmt(cell.copy_example)} | {_pairs(raw.get('metrics'))} | "
            f"{_pairs(cell.outcomes)} |"
        )
        for group in ("by_depth", "by_fill", "by_kind"):
            if _mapping(raw.get(group)):
                rows.append(
                    f"| {run.label} | {cell.length} | {cell.prompt} | "
                    f"{group.replace('_', ' ')}: {_pairs(raw.get(group))} | | | | | |"
                )
    return rows


def task_sections(runs: Sequence[RunView]) -> list[str]:
    """The '## Task families' section (empty when no run has a task table)."""
    described: dict[str, Mapping[str, object]] = {}
    for run in runs:
        for name, table in _mapping(run.results.get("tasks")).items():
            described.setdefault(name, _mapping(table))
    if not described:
        return []
    lines = [
        "",
        "## Task families",
        "",
        "x100. Random guess: the expected score of guessing (Ada-LEval's baseline); "
        "instruction following: % of answers the task's parser could read; copied example: "
        "% of answers repeating the prompt's example (– when the prompt shows none).",
    ]
    for name, table in described.items():
        lines += [
            "",
            f"### {name} ({table.get('family')}): {table.get('metric')}",
            "",
            f"Random guess: {table.get('baseline')}.",
            "",
            "| run | length | prompt | score [95% CI] (n) | random guess | instruction following "
            "| copied example | metrics | outcomes |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for run in runs:
            table_of_run = _mapping(_mapping(run.results.get("tasks")).get(name))
            if table_of_run:
                lines += _rows(run, name, table_of_run)
    return lines
