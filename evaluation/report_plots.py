"""The report's PNG plots, drawn from the runs' score cells (every task).

`plot_scores`: one panel per task, mean score x100 against length (shortest first),
a line per (run, prompt) with its bootstrap interval, the task's random guess dotted
and the number of scored answers in each legend label; a task none of whose cells is
scored says why in its panel. `plot_outcomes`: the share of each outcome per run,
task, subset and prompt.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Final

from lengthwise.evaluation.outcomes import OUTCOMES
from lengthwise.evaluation.score_cells import ScoreCell

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from lengthwise.evaluation.report import RunView

_OUTCOME_COLOURS: Final = {
    "ok": "#4c9a2a",
    "empty": "#bdbdbd",
    "degenerate": "#e6a100",
    "copied_context": "#8e6fbf",
    "instruction_repeated": "#3d85c6",
    "blocked": "#000000",
    "over_length": "#b85450",
    "error": "#ff0000",
    "skipped": "#f4cccc",
}


def _task_lengths(runs: list[RunView], task: str) -> list[tuple[str, int]]:
    """(length, target) of a task over every run, shortest first."""
    found: dict[str, int] = {}
    for run in runs:
        for cell in run.cells:
            if cell.task == task:
                found[cell.length] = max(found.get(cell.length, 0), cell.target)
    return sorted(found.items(), key=lambda item: (item[1], item[0]))


def _n_text(cells: list[ScoreCell]) -> str:
    counts = sorted({c.n for c in cells})
    return f"n={counts[0]}" if len(counts) == 1 else f"n={counts[0]}-{counts[-1]}"


def _draw_task(axes: Axes, runs: list[RunView], task: str) -> None:
    lengths = _task_lengths(runs, task)
    positions = {length: i for i, (length, _) in enumerate(lengths)}
    cells = [c for run in runs for c in run.cells if c.task == task]
    guesses = [c.random_guess for c in cells if c.random_guess is not None]
    series = [
        (run, prompt)
        for run in runs
        for prompt in dict.fromkeys(c.prompt for c in run.cells if c.task == task)
    ]
    # Lines side by side at each length, so equal lengths' intervals do not hide each other.
    for index, (run, prompt) in enumerate(series):
        dodge = (index - (len(series) - 1) / 2) * 0.06
        scored = [
            c for c in run.cells if c.task == task and c.prompt == prompt and c.mean is not None
        ]
        if not scored:
            continue
        means = [c.mean or 0.0 for c in scored]
        low = [m - (c.ci[0] if c.ci else m) for m, c in zip(means, scored, strict=True)]
        high = [(c.ci[1] if c.ci else m) - m for m, c in zip(means, scored, strict=True)]
        axes.errorbar(
            [positions[c.length] + dodge for c in scored],
            means,
            yerr=[low, high],
            marker="o",
            capsize=3,
            linestyle="--" if run.is_baseline else "-",
            label=f"{run.label} {'any prompt' if run.prompt_independent else prompt} "
            f"({_n_text(scored)})",
        )
    if guesses:  # per length: the chance level moves with the samples (and their length)
        by_length: dict[str, list[float]] = {}
        for c in cells:
            if c.random_guess is not None:
                by_length.setdefault(c.length, []).append(c.random_guess)
        xs = sorted(by_length, key=lambda length: positions[length])
        axes.plot(
            [positions[x] for x in xs],
            [sum(by_length[x]) / len(by_length[x]) for x in xs],
            color="#777777",
            linestyle=":",
            marker="_",
            markersize=14,
            label="random guess",
        )
    if not any(c.mean is not None for c in cells):
        reasons = sorted({c.unscored or "not scored" for c in cells})
        axes.text(0.5, 0.5, "\n".join(reasons), ha="center", va="center", transform=axes.transAxes)
    metric = next((c.metric for c in cells if c.metric), "score")
    axes.set_ylim(-3, 103)  # every score is x100: panels compare at a glance
    axes.set_xlim(-0.5, len(lengths) - 0.5)
    axes.set_xticks(range(len(lengths)))
    axes.set_xticklabels([f"{name}\n{target}" for name, target in lengths])
    axes.set_xlabel("length (target tokens)")
    axes.set_ylabel(f"{metric} x100")
    axes.set_title(task)
    axes.grid(alpha=0.3)
    if axes.get_legend_handles_labels()[0]:
        axes.legend(fontsize=7)


def plot_scores(runs: list[RunView], path: Path) -> None:
    """Mean score vs length, one panel per task (with CIs, n and the random guess)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    tasks = list(dict.fromkeys(c.task for run in runs for c in run.cells)) or ["summarization"]
    columns = min(2, len(tasks))
    rows = math.ceil(len(tasks) / columns)
    figure, grid = plt.subplots(rows, columns, figsize=(7 * columns, 4.5 * rows), squeeze=False)
    for index, task in enumerate(tasks):
        _draw_task(grid[index // columns][index % columns], runs, task)
    for index in range(len(tasks), rows * columns):
        grid[index // columns][index % columns].set_visible(False)
    figure.suptitle("Score vs context length")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def plot_outcomes(runs: list[RunView], path: Path) -> None:
    """Stacked bars of outcome shares per (run, task, subset, prompt)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    bars = [
        (f"{run.label} {c.subset} {c.prompt} (n={sum(c.outcomes.values())})", c.outcomes)
        for run in runs
        for c in run.cells
        if c.outcomes
    ]
    figure, axes = plt.subplots(figsize=(10, 1.4 + 0.35 * max(len(bars), 1)))
    for row, (_, counts) in enumerate(bars):
        total = sum(counts.values()) or 1
        left = 0.0
        for outcome in OUTCOMES:
            share = counts.get(outcome, 0) / total
            if share:
                axes.barh(row, share, left=left, color=_OUTCOME_COLOURS[outcome], label=outcome)
                left += share
    if not bars:
        axes.text(0.5, 0.5, "no answers yet", ha="center", va="center", transform=axes.transAxes)
    axes.set_yticks(range(len(bars)))
    axes.set_yticklabels([name for name, _ in bars], fontsize=8)
    axes.invert_yaxis()
    axes.set_xlim(0, 1)
    axes.set_xlabel("share of (sample, prompt) pairs")
    handles, labels = axes.get_legend_handles_labels()
    unique = dict(zip(labels, handles, strict=True))
    if unique:
        axes.legend(
            unique.values(), unique.keys(), fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1)
        )
    axes.set_title("Outcomes")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
