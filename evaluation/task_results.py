"""results.json `tasks`: per task, per length and prompt, the score beside its references.

Each cell (`TaskCell`) holds what Ada-LEval reports beside a score: the random-guess
baseline, the instruction-following rate (answers the task's parser could read, over
answered pairs; `unreadable_rate` is the rest) and the copy-the-example rate (answers
repeating the prompt's example; None when the prompt shows none), plus the mean of
every secondary metric (Kendall tau, token F1, per-section ROUGE-L as `section_1`...),
judge verdict counts, and scores by evidence depth (in fifths: "0.0-0.2" ...),
distractor fill and question kind where instances have them. The needles' fill series
is kept apart: `n`, `mean` and the depth rows are the main series only, `fill_n` /
`fill_mean` / `by_fill` the fill series.
Scores, baselines and metric means are x100 like the summary tables.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field

from lengthwise.evaluation.generation import Generation, LineKey
from lengthwise.evaluation.json_types import JsonObject
from lengthwise.evaluation.planning import Plan, PlannedItem
from lengthwise.evaluation.samples import ReleaseData
from lengthwise.evaluation.scoring import bootstrap_ci, length_drop, mean
from lengthwise.evaluation.tasks.base import EvalTask

SCALE = 100.0
Scores = dict[str, float]  # sample id -> score x100


@dataclass
class TaskCell:
    """One task at one length under one prompt."""

    config: str
    length: str
    target: int
    planned: int = 0
    n: int = 0
    mean: float | None = None
    ci: list[float] | None = None
    random_baseline: float | None = None
    instruction_following_rate: float | None = None
    unreadable_rate: float | None = None  # answers the parser could not read (100 - the above)
    copy_example_rate: float | None = None
    metrics: dict[str, float] = field(default_factory=dict)
    outcomes: dict[str, int] = field(default_factory=dict)
    judge: dict[str, int] = field(default_factory=dict)
    by_depth: dict[str, float] = field(default_factory=dict)
    by_fill: dict[str, float] = field(default_factory=dict)
    fill_n: int = 0  # fill-series answers (needles), outside `n` and `mean`
    fill_mean: float | None = None
    by_kind: dict[str, float] = field(default_factory=dict)
    missing: int = 0


@dataclass
class TaskTable:
    """One task: what it measures and its cells, shortest length first."""

    family: str
    metric: str
    baseline: str
    example_shown: bool
    cells: dict[str, dict[str, TaskCell]] = field(default_factory=dict)  # length -> prompt
    length_drop: dict[str, JsonObject | None] = field(default_factory=dict)

    def to_json(self) -> JsonObject:
        data: JsonObject = asdict(self)
        data["lengths"] = data.pop("cells")
        return data


@dataclass
class _Tally:
    cell: TaskCell
    scores: Scores = field(default_factory=dict)
    fill_scores: Scores = field(default_factory=dict)  # the fill series, apart from `scores`
    readable: list[bool] = field(default_factory=list)
    copied: list[bool] = field(default_factory=list)
    metrics: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    groups: dict[str, dict[str, list[float]]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(list))
    )


DEPTH_BINS = 5  # evidence depth in fifths of the context


def depth_bin(depth: float) -> str:
    """The fifth of the context a depth in [0, 1] falls in: "0.0-0.2" ... "0.8-1.0"
    (1.0 in the last), so a table has at most five depth rows, not one per raw value."""
    index = min(DEPTH_BINS - 1, max(0, int(depth * DEPTH_BINS)))
    return f"{index / DEPTH_BINS:.1f}-{(index + 1) / DEPTH_BINS:.1f}"


def _rate(flags: Sequence[bool]) -> float | None:
    return SCALE * sum(flags) / len(flags) if flags else None


def _count(tally: _Tally, item: PlannedItem, line: Generation) -> None:
    tally.cell.outcomes[line.outcome] = tally.cell.outcomes.get(line.outcome, 0) + 1
    if line.judge is not None:
        tally.cell.judge[line.judge] = tally.cell.judge.get(line.judge, 0) + 1
    if line.readable is not None:
        tally.readable.append(line.readable)
        tally.copied.append(bool(line.copied_example))
    for name, value in line.metrics.items():
        tally.metrics[name].append(value * SCALE)
    if line.score is None:
        return
    value = float(line.score) * SCALE
    sample = item.sample
    # The fill series fills only a share of the window: its scores are kept apart so
    # the length's mean is the main series' alone (length and fill not confounded).
    if sample.fill is not None:
        tally.fill_scores[sample.id] = value
        tally.groups["by_fill"][f"{sample.fill:g}"].append(value)
    else:
        tally.scores[sample.id] = value
        if sample.depth is not None:
            tally.groups["by_depth"][depth_bin(sample.depth)].append(value)
    if "kind" in sample.details:
        tally.groups["by_kind"][str(sample.details["kind"])].append(value)


def task_tables(
    plan: Plan,
    lines: Mapping[LineKey, Generation],
    keys: Mapping[LineKey, str],
    release: ReleaseData,
    tasks: Mapping[str, EvalTask],
    *,
    resamples: int,
    seed: int,
) -> dict[str, TaskTable]:
    """Per task name: its table, every planned pair counted once."""
    tallies: dict[tuple[str, str], _Tally] = {}
    tables: dict[str, TaskTable] = {}
    for item in plan.items:
        sample = item.sample
        task = tasks[sample.family]
        table = tables.setdefault(
            sample.task,
            TaskTable(task.family, task.metric, task.baseline, bool(task.example(sample))),
        )
        tally = tallies.get((sample.subset, item.prompt.id))
        if tally is None:
            cell = TaskCell(sample.subset, sample.length_name, sample.target_tokens)
            tally = tallies[(sample.subset, item.prompt.id)] = _Tally(cell)
            table.cells.setdefault(sample.length_name, {})[item.prompt.id] = cell
        tally.cell.planned += 1
        line = lines.get(item.key)
        if line is None or line.request_key != keys[item.key]:
            tally.cell.missing += 1
            continue
        _count(tally, item, line)
    for (config, _), tally in tallies.items():
        _finish(tally, tasks, release, config, resamples=resamples, seed=seed)
    for table in tables.values():
        _add_length_drop(table)
    return tables


def _finish(
    tally: _Tally,
    tasks: Mapping[str, EvalTask],
    release: ReleaseData,
    config: str,
    *,
    resamples: int,
    seed: int,
) -> None:
    cell = tally.cell
    values = list(tally.scores.values())
    interval = bootstrap_ci(values, resamples=resamples, seed=seed) if values else None
    cell.n, cell.mean, cell.ci = len(values), mean(values), list(interval) if interval else None
    samples = release.subsets.get(config, [])
    if samples:
        task = tasks[samples[0].family]
        baseline = task.random_baseline(samples, seed)
        cell.random_baseline = None if baseline is None else baseline * SCALE
        cell.copy_example_rate = _rate(tally.copied) if task.example(samples[0]) else None
    cell.instruction_following_rate = _rate(tally.readable)
    readable = cell.instruction_following_rate
    cell.unreadable_rate = None if readable is None else SCALE - readable
    fill = list(tally.fill_scores.values())
    cell.fill_n, cell.fill_mean = len(fill), mean(fill) if fill else None
    cell.metrics = {name: sum(v) / len(v) for name, v in sorted(tally.metrics.items()) if v}
    cell.outcomes = dict(sorted(cell.outcomes.items()))
    for name, groups in tally.groups.items():
        means = {key: sum(v) / len(v) for key, v in sorted(groups.items())}
        setattr(cell, name, means)


def _add_length_drop(table: TaskTable) -> None:
    prompts = list(dict.fromkeys(p for by_prompt in table.cells.values() for p in by_prompt))
    for prompt in prompts:
        series = [
            (length, cells[prompt].mean) for length, cells in table.cells.items() if prompt in cells
        ]
        table.length_drop[prompt] = length_drop(series)


def outcome_totals(tables: Mapping[str, TaskTable]) -> Counter[str]:
    """Every outcome over every task, for the console summary."""
    totals: Counter[str] = Counter()
    for table in tables.values():
        for cells in table.cells.values():
            for cell in cells.values():
                totals.update(cell.outcomes)
    return totals
