"""Position bias: does the score depend on where in the context the answer sits?

For items with a `depth` (needle and QA tasks: the answer's position in the context,
in [0, 1]) the mean score by front / middle / rear third and by decile, per run, task
and subset. Summaries have no single answer position: for them the traceability curve
(share of output sentences sourced from each decile, by TF-IDF, beside the reference)
stands in, so one command shows both.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from lengthwise.evaluation.analyses import traceability
from lengthwise.evaluation.analyses.output import AnalysisOutput
from lengthwise.evaluation.analyses.plots import line_plot
from lengthwise.evaluation.analyses.positions import DECILES, decile_of, third_of
from lengthwise.evaluation.analyses.run_data import AnalysedRun, RunItem
from lengthwise.evaluation.scoring import bootstrap_ci

NAME: Final = "position_bias"
DEPTH_THIRDS: Final = ("front", "middle", "rear")


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _interval(values: list[float]) -> list[float] | None:
    found = bootstrap_ci(values, resamples=1000, seed=0) if len(values) > 1 else None
    return list(found) if found else None


def depth_table(items: Sequence[RunItem]) -> dict[str, Any]:
    """Mean score x100, n and 95% bootstrap interval by depth third; mean and n by decile;
    and the same thirds per prompt (`by_prompt`), as prompts are not pooled in the plot."""
    thirds: list[list[float]] = [[] for _ in DEPTH_THIRDS]
    deciles: list[list[float]] = [[] for _ in range(DECILES)]
    for item in items:
        if item.depth is None or item.score is None:
            continue
        depth = min(max(item.depth, 0.0), 1.0)
        thirds[third_of(depth)].append(100.0 * item.score)
        deciles[decile_of(depth)].append(100.0 * item.score)
    prompts = sorted({i.prompt_id for i in items if i.depth is not None and i.score is not None})
    return {
        "n": sum(len(t) for t in thirds),
        "thirds": {name: _mean(v) for name, v in zip(DEPTH_THIRDS, thirds, strict=True)},
        "thirds_n": {name: len(v) for name, v in zip(DEPTH_THIRDS, thirds, strict=True)},
        "thirds_ci": {name: _interval(v) for name, v in zip(DEPTH_THIRDS, thirds, strict=True)},
        "by_prompt": (
            {p: _thirds([i for i in items if i.prompt_id == p]) for p in prompts}
            if len(prompts) > 1
            else {}
        ),
        "deciles": [_mean(v) for v in deciles],
        "deciles_n": [len(v) for v in deciles],
    }


def _thirds(items: Sequence[RunItem]) -> dict[str, Any]:
    thirds: list[list[float]] = [[] for _ in DEPTH_THIRDS]
    for item in items:
        if item.depth is not None and item.score is not None:
            thirds[third_of(min(max(item.depth, 0.0), 1.0))].append(100.0 * item.score)
    return {
        "thirds": {name: _mean(v) for name, v in zip(DEPTH_THIRDS, thirds, strict=True)},
        "thirds_n": {name: len(v) for name, v in zip(DEPTH_THIRDS, thirds, strict=True)},
        "thirds_ci": {name: _interval(v) for name, v in zip(DEPTH_THIRDS, thirds, strict=True)},
    }


def _depth_groups(runs: Sequence[AnalysedRun]) -> dict[str, dict[str, dict[str, Any]]]:
    table: dict[str, dict[str, dict[str, Any]]] = {}
    for run in runs:
        groups: dict[tuple[str, str], list[RunItem]] = {}
        for item in run.items:
            if item.depth is not None:
                groups.setdefault((item.task, item.subset), []).append(item)
        for (task, subset), items in sorted(groups.items()):
            table.setdefault(run.label, {}).setdefault(task, {})[subset] = depth_table(items)
    return table


def analyse(runs: Sequence[AnalysedRun], out: Path) -> AnalysisOutput:
    depth = _depth_groups(runs)
    notes: list[str] = []
    series: dict[str, tuple[list[float], list[float | None]]] = {}
    intervals: dict[str, list[tuple[float, float] | None]] = {}
    xs = [100 / 6, 50.0, 500 / 6]  # the middle of each third
    for label, by_task in depth.items():
        for task, by_subset in by_task.items():
            for subset, entry in by_subset.items():
                thirds = ", ".join(
                    f"{k} {'–' if v is None else f'{v:.1f}'} (n={entry['thirds_n'][k]})"
                    for k, v in entry["thirds"].items()
                )
                notes.append(f"{label} {task} {subset}: {thirds}")
                # One line per prompt where there are several: prompts are not pooled.
                for prompt, part in (entry["by_prompt"] or {"": entry}).items():
                    counts = "/".join(str(part["thirds_n"][k]) for k in DEPTH_THIRDS)
                    name = f"{label} {task} {subset} {prompt} (n={counts})".replace("  ", " ")
                    series[name] = (xs, [part["thirds"][k] for k in DEPTH_THIRDS])
                    intervals[name] = [
                        (ci[0], ci[1]) if (ci := part["thirds_ci"][k]) else None
                        for k in DEPTH_THIRDS
                    ]
    plots: list[Path] = []
    if series:
        plots.append(
            line_plot(
                out / f"{NAME}_accuracy_by_depth.png",
                series,
                title="Score by answer depth (thirds, 95% CI)",
                xlabel="depth of the answer in the context",
                ylabel="mean score x100",
                xticks=list(zip(xs, ["front third", "middle third", "rear third"], strict=True)),
                intervals=intervals,
            )
        )
    summaries = [r for r in runs if any(traceability.traceable(i) for i in r.items)]
    curve: dict[str, Any] = {}
    if summaries:
        traced = traceability.analyse(summaries, out, methods=("tfidf",))
        curve = traced.table["methods"]["tfidf"]
        plots += [p for p in traced.plots if "deciles" in p.name]
        notes.append("summaries: traceability curve by TF-IDF (see traceability for both methods)")
    return AnalysisOutput(NAME, {"depth": depth, "summary_traceability": curve}, plots, notes)
