"""The long-context check of a release: does the score move when half the context is gone?

Ada-LEval's truncation test validates a benchmark: a task that needs the whole text
loses far more with its context cut than one that does not. `lengthwise analyse
truncation FULL_RUN CUT_RUN... --out DIR` writes DIR/truncation.json (per task and
subset: the mean score at each fraction of the context kept, the drop, and
`insensitive` when the relative drop at half the context or less stays under the
threshold). `lengthwise release SPEC --version V --long-context-check DIR/truncation.json`
puts that verdict into the dataset card ("Long-context check") and ships the file as
`long_context_check.json`, so users see whether each config measures long-context use.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from lengthwise.errors import InputFileError

CHECK_COPY = "long_context_check.json"


@dataclass(frozen=True)
class FractionScore:
    fraction: float  # share of the context kept
    mean: float  # mean score x100 on the samples every run answered
    relative_drop: float | None  # from the largest fraction; None when that score is 0


@dataclass(frozen=True)
class GroupCheck:
    task: str
    subset: str
    n: int
    scores: list[FractionScore]  # largest fraction first
    insensitive: bool  # the score barely moves with half the context or more gone


@dataclass(frozen=True)
class LongContextCheck:
    runs: dict[str, float]  # run label -> fraction of the context it kept
    threshold: float
    groups: list[GroupCheck]


def _number(value: object, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InputFileError(f"{where}: expected a number, found {value!r}")
    return float(value)


def _object(value: object, where: str) -> dict[str, object]:
    if not isinstance(value, dict):
        raise InputFileError(f"{where}: expected a JSON object")
    return {str(k): v for k, v in value.items()}


def _group(task: str, subset: str, entry: object, where: str) -> GroupCheck:
    fields = _object(entry, where)
    rows = fields.get("rows")
    if not isinstance(rows, list) or not rows:
        raise InputFileError(f"{where}.rows: expected a list of fractions")
    scores = []
    for number, row in enumerate(rows):
        values = _object(row, f"{where}.rows.{number}")
        drop = values.get("relative_drop")
        scores.append(
            FractionScore(
                _number(values.get("fraction"), f"{where}.rows.{number}.fraction"),
                _number(values.get("mean"), f"{where}.rows.{number}.mean"),
                None if drop is None else _number(drop, f"{where}.rows.{number}.relative_drop"),
            )
        )
    n = int(_number(fields.get("n"), f"{where}.n"))
    return GroupCheck(task, subset, n, scores, fields.get("insensitive") is True)


def read_long_context_check(path: Path) -> LongContextCheck:
    """A truncation.json written by `lengthwise analyse truncation`; errors name the key."""
    try:
        document = _object(json.loads(path.read_text(encoding="utf-8")), str(path))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputFileError(f"{path}: cannot read the long-context check: {exc}") from None
    if document.get("analysis") != "truncation":
        raise InputFileError(
            f"{path}: analysis: not a truncation table (write one with "
            "`lengthwise analyse truncation FULL_RUN CUT_RUN... --out DIR`)"
        )
    runs = _object(document.get("fractions"), f"{path}: fractions")
    tasks = _object(document.get("tasks"), f"{path}: tasks")
    groups = [
        _group(task, subset, entry, f"{path}: tasks.{task}.{subset}")
        for task, by_subset in sorted(tasks.items())
        for subset, entry in sorted(_object(by_subset, f"{path}: tasks.{task}").items())
    ]
    if not groups:
        raise InputFileError(f"{path}: tasks: no task was scored at two fractions")
    return LongContextCheck(
        {label: _number(f, f"{path}: fractions.{label}") for label, f in runs.items()},
        _number(document.get("threshold"), f"{path}: threshold"),
        groups,
    )


def _cut(group: GroupCheck) -> FractionScore | None:
    """The score with the most context kept among the runs that kept half or less."""
    return next((s for s in group.scores if s.fraction <= 0.5), None)


def long_context_section(check: LongContextCheck) -> str:
    """The card's "Long-context check" section (markdown, without its heading)."""
    runs = ", ".join(
        f"{label} ({fraction:.0%} of the context)" for label, fraction in check.runs.items()
    )
    lines = [
        "The same samples were scored with their context cut (Ada-LEval's truncation "
        f"test; runs: {runs}). A config whose score drops by less than {check.threshold:.0%} "
        "with half the context or more gone does not measure long-context use. The table "
        f"ships as `{CHECK_COPY}`.",
        "",
        "| task | config | n | score, full context | score, cut | kept | drop | verdict |",
        "|---|---|---:|---:|---:|---:|---:|---|",
    ]
    for group in check.groups:
        full, cut = group.scores[0], _cut(group)
        if cut is None:
            verdict, cut_cells = "no run kept half or less", "- | - | -"
        else:
            drop = "-" if cut.relative_drop is None else f"{cut.relative_drop:.0%}"
            cut_cells = f"{cut.mean:.2f} | {cut.fraction:.0%} | {drop}"
            verdict = (
                "**does not measure long context**" if group.insensitive else "needs the context"
            )
        lines.append(
            f"| {group.task} | {group.subset} | {group.n} | {full.mean:.2f} | {cut_cells} | "
            f"{verdict} |"
        )
    flagged = [f"{g.task} {g.subset}" for g in check.groups if g.insensitive]
    if flagged:
        lines += [
            "",
            f"**Warning:** {', '.join(flagged)}: the score barely moves when half the "
            "context is gone; results on these configs say little about long-context use.",
        ]
    return "\n".join(lines)
