"""Prompt sensitivity: the same samples under prompt variants, compared pair by pair.

For each run, task and subset, every prompt is compared with the first one (the run's
prompt order) on the samples both scored: mean difference with a bootstrap interval
(fixed seed), wins/losses/ties and the exact sign test p-value
(`scoring.paired_comparison`). Beside it, CNNSum's mean squared difference over
subsets of the two prompts' means (for IB vs IE that is CNNSum's MSD, x100 scale):
MSD says how far apart the means are, the paired test whether the gap is more than
noise.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from lengthwise.evaluation.analyses.output import AnalysisOutput
from lengthwise.evaluation.analyses.plots import bar_plot
from lengthwise.evaluation.analyses.run_data import AnalysedRun
from lengthwise.evaluation.scoring import (
    ib_ie_msd,
    ib_ie_squared_differences,
    mean,
    paired_comparison,
)

NAME: Final = "prompt_sensitivity"
Scores = dict[str, dict[str, dict[str, dict[str, float]]]]  # task -> subset -> prompt -> sample


def _scores(run: AnalysedRun) -> tuple[Scores, list[str]]:
    table: Scores = {}
    prompts: dict[str, None] = {}
    for item in run.items:
        prompts[item.prompt_id] = None
        if item.score is not None:
            by_prompt = table.setdefault(item.task, {}).setdefault(item.subset, {})
            by_prompt.setdefault(item.prompt_id, {})[item.sample_id] = 100.0 * item.score
    return table, list(prompts)


def _compare_task(
    by_subset: dict[str, dict[str, dict[str, float]]], base: str, other: str, resamples: int
) -> dict[str, Any]:
    per_subset: dict[str, Any] = {}
    means_a: dict[str, float | None] = {}
    means_b: dict[str, float | None] = {}
    for subset, by_prompt in by_subset.items():
        a, b = by_prompt.get(base, {}), by_prompt.get(other, {})
        means_a[subset], means_b[subset] = mean(list(a.values())), mean(list(b.values()))
        paired = paired_comparison(a, b, resamples=resamples)
        per_subset[subset] = paired.to_dict() if paired else None
    return {
        "baseline_prompt": base,
        "prompt": other,
        "paired": per_subset,
        "squared_differences": ib_ie_squared_differences(means_a, means_b),
        "msd": ib_ie_msd(means_a, means_b),
    }


def analyse(runs: Sequence[AnalysedRun], out: Path, *, resamples: int = 1000) -> AnalysisOutput:
    table: dict[str, dict[str, list[dict[str, Any]]]] = {}
    notes: list[str] = []
    bars: dict[str, list[float | None]] = {}
    categories: list[str] = []
    for run in runs:
        scores, prompts = _scores(run)
        if len(prompts) < 2:
            notes.append(f"{run.label}: one prompt only ({', '.join(prompts)}); nothing to compare")
            continue
        for task, by_subset in scores.items():
            for other in prompts[1:]:
                entry = _compare_task(by_subset, prompts[0], other, resamples)
                table.setdefault(run.label, {}).setdefault(task, []).append(entry)
                msd = entry["msd"]
                notes.append(
                    f"{run.label} {task} {other} vs {prompts[0]}: MSD "
                    f"{'–' if msd is None else f'{msd:.2f}'}"
                )
                for subset, paired in entry["paired"].items():
                    if paired:
                        name = f"{task} {subset} {other}-{prompts[0]}"
                        if name not in categories:
                            categories.append(name)
                        bars.setdefault(run.label, [])
                        ci = paired["ci"] or [None, None]
                        notes.append(
                            f"  {subset}: {paired['mean_difference']:+.2f} [{ci[0]}, {ci[1]}] "
                            f"{paired['wins']}/{paired['losses']}/{paired['ties']} "
                            f"p={paired['sign_test_p']:.3f} (n={paired['n']})"
                        )
    pairs = {label: [_paired(table[label], c) for c in categories] for label in table}
    series = {
        label: [None if p is None else float(p["mean_difference"]) for p in found]
        for label, found in pairs.items()
    }
    intervals = {
        label: [(p["ci"][0], p["ci"][1]) if p and p["ci"] else None for p in found]
        for label, found in pairs.items()
    }
    counts = {label: [p["n"] if p else None for p in found] for label, found in pairs.items()}
    plots = []
    if categories:
        plots.append(
            bar_plot(
                out / f"{NAME}_paired_differences.png",
                categories,
                series,
                title="Paired score difference between prompts (95% CI, n pairs)",
                ylabel="mean difference x100",
                intervals=intervals,
                counts=counts,
            )
        )
    return AnalysisOutput(NAME, {"runs": table}, plots, notes)


def _paired(by_task: dict[str, list[dict[str, Any]]], category: str) -> dict[str, Any] | None:
    task, subset, pair = category.split(" ")
    other = pair.split("-", 1)[0]
    for entry in by_task.get(task, []):
        paired = entry["paired"].get(subset) if entry["prompt"] == other else None
        if paired:
            return dict(paired)
    return None
