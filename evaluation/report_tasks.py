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


def _score(cell: Mapping[str, object]) -> str:
    ci = cell.get("ci")
    interval = f" [{_fmt(ci[0])}, {_fmt(ci[1])}]" if isinstance(ci, list) and ci else ""
    return f"{_fmt(cell.get('mean'))}{interval} (n={cell.get('n', 0)})"


def _pairs(values: object) -> str:
    return (
        ", ".join(
            f"{k} {_fmt(v) if isinstance(v, float) else v}" for k, v in _mapping(values).items()
        )
        or "–"
    )


def _rows(run: RunView, task: str, described: Mapping[str, object]) -> list[str]:
    rows: list[str] = []
    for length, by_prompt in _mapping(described.get("lengths")).items():
        for prompt, entry in _mapping(by_prompt).items():
            cell = _mapping(entry)
            rows.append(
                f"| {run.label} | {length} | {prompt} | {_score(cell)} | "
                f"{_fmt(cell.get('random_baseline'))} | "
                f"{_fmt(cell.get('instruction_following_rate'))} | "
                f"{_fmt(cell.get('copy_example_rate'))} | {_pairs(cell.get('metrics'))} | "
                f"{_pairs(cell.get('outcomes'))} |"
            )
            for group in ("by_depth", "by_fill", "by_kind"):
                if _mapping(cell.get(group)):
                    rows.append(
                        f"| {run.label} | {length} | {prompt} | {group.replace('_', ' ')}: "
                        f"{_pairs(cell.get(group))} | | | | | |"
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
