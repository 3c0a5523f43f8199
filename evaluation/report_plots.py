"""The report's PNG plots: score vs context length, and outcome shares."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Final

from lengthwise.evaluation.outcomes import OUTCOMES

if TYPE_CHECKING:
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


def plot_scores(runs: list[RunView], subsets: list[str], path: Path) -> None:
    """Mean score vs subset target length, a line per (run, prompt), with CI bars."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    targets: dict[str, int] = {}
    for run in runs:
        targets.update(run.results.get("subset_targets", {}))
    positions = {s: i for i, s in enumerate(subsets)}
    figure, axes = plt.subplots(figsize=(7, 4.5))
    for run in runs:
        for prompt in run.prompts:
            xs, ys, low, high = [], [], [], []
            for subset in subsets:
                entry = run.results["results"].get(subset, {}).get(prompt)
                if not entry or entry.get("mean") is None:
                    continue
                xs.append(positions[subset])
                ys.append(entry["mean"])
                ci = entry.get("ci") or [entry["mean"], entry["mean"]]
                low.append(entry["mean"] - ci[0])
                high.append(ci[1] - entry["mean"])
            if xs:
                axes.errorbar(
                    xs,
                    ys,
                    yerr=[low, high],
                    marker="o",
                    capsize=3,
                    linestyle="--" if run.is_baseline else "-",
                    label=f"{run.label} {prompt}",
                )
    axes.set_xticks(range(len(subsets)))
    axes.set_xticklabels([f"{s}\n{targets.get(s, '')}" for s in subsets])
    axes.set_xlabel("subset (target tokens)")
    axes.set_ylabel("ROUGE-L x100")
    axes.set_title("Score vs context length")
    axes.grid(alpha=0.3)
    if axes.get_legend_handles_labels()[0]:
        axes.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def plot_outcomes(runs: list[RunView], subsets: list[str], path: Path) -> None:
    """Stacked bars of outcome shares per (run, prompt, subset)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    bars: list[tuple[str, dict[str, int]]] = []
    for run in runs:
        for prompt in run.prompts:
            for subset in subsets:
                entry = run.results["results"].get(subset, {}).get(prompt)
                if entry:
                    bars.append((f"{run.label} {prompt} {subset}", entry["outcomes"]))
    figure, axes = plt.subplots(figsize=(9, 1.4 + 0.35 * max(len(bars), 1)))
    for row, (_, counts) in enumerate(bars):
        total = sum(counts.values()) or 1
        left = 0.0
        for outcome in OUTCOMES:
            share = counts.get(outcome, 0) / total
            if share:
                axes.barh(row, share, left=left, color=_OUTCOME_COLOURS[outcome], label=outcome)
                left += share
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
