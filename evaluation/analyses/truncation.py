"""Truncation sensitivity (Ada-LEval): the same samples scored with the context cut.

Give the full run and runs whose contexts were cut to fractions of their length. A
run's fraction is `--fractions` (one per run, in order), else results.json's
`context_fraction`, else, per subset (release config), the mean kept share of that
config's own prompts (prompt tokens over the uncut prompt's, 1 for a prompt not cut,
as `--policy truncate-middle` with a smaller `--context-window` makes): one window cuts
a long config to 9 % and leaves a short one whole, so each config is compared at its
own fractions. Per task and subset: the mean score at each fraction on the samples
every run answered, and the drop from the largest fraction. A task that needs the whole
text loses far more than one that does not.

Release validation: when the score drops by less than `threshold` (default 10 % of the
full score) at the largest fraction of 0.5 or less (half the context or more gone), the
table flags the task and subset as not measuring long context; `lengthwise release
--long-context-check OUT/truncation.json` puts the verdict into the dataset card
(releases/release/long_context.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from lengthwise.errors import UserError
from lengthwise.evaluation.analyses.output import AnalysisOutput
from lengthwise.evaluation.analyses.plots import line_plot
from lengthwise.evaluation.analyses.run_data import AnalysedRun

NAME: Final = "truncation"
DEFAULT_THRESHOLD: Final = 0.10
Group = tuple[str, str]  # (task, subset)


def run_fractions(
    runs: Sequence[AnalysedRun], given: Sequence[float] | None
) -> list[dict[str, float]]:
    """Per run, the context fraction of each of its subsets (see the module docstring)."""
    if given is not None:
        if len(given) != len(runs):
            raise UserError(f"--fractions has {len(given)} values for {len(runs)} run folders")
        if any(not 0 < f <= 1 for f in given):
            raise UserError("--fractions: each fraction must be in (0, 1]")
        return [
            dict.fromkeys(run.context_fractions(), f) for run, f in zip(runs, given, strict=True)
        ]
    return [run.context_fractions() for run in runs]


def _scores(run: AnalysedRun) -> dict[Group, dict[tuple[str, str], float]]:
    table: dict[Group, dict[tuple[str, str], float]] = {}
    for item in run.items:
        if item.score is not None:
            group = table.setdefault((item.task, item.subset), {})
            group[(item.sample_id, item.prompt_id)] = 100.0 * item.score
    return table


def _group_rows(
    by_fraction: dict[float, dict[tuple[str, str], float]], threshold: float
) -> dict[str, Any]:
    shared = set.intersection(*(set(scores) for scores in by_fraction.values()))
    fractions = sorted(by_fraction, reverse=True)
    means = {f: sum(by_fraction[f][k] for k in shared) / len(shared) for f in fractions}
    full = means[fractions[0]]
    rows: list[dict[str, Any]] = []
    for fraction in fractions:
        drop = full - means[fraction]
        rows.append(
            {
                "fraction": fraction,
                "mean": means[fraction],
                "drop": drop,
                "relative_drop": drop / full if full else None,
            }
        )
    # The largest cut keeping at most half: "half the context gone".
    half = next((r for r in rows if r["fraction"] <= 0.5), None)
    insensitive = (
        half is not None and half["relative_drop"] is not None and half["relative_drop"] < threshold
    )
    return {
        "n": len(shared),
        "full_fraction": fractions[0],
        "rows": rows,
        "insensitive": insensitive,
    }


def analyse(
    runs: Sequence[AnalysedRun],
    out: Path,
    *,
    fractions: Sequence[float] | None = None,
    threshold: float = DEFAULT_THRESHOLD,
) -> AnalysisOutput:
    given = run_fractions(runs, fractions)
    collected: dict[Group, dict[float, dict[tuple[str, str], float]]] = {}
    for run, by_subset in zip(runs, given, strict=True):
        for group, scores in _scores(run).items():
            fraction = by_subset.get(group[1], 1.0)
            collected.setdefault(group, {}).setdefault(fraction, {}).update(scores)
    if all(len(by_fraction) < 2 for by_fraction in collected.values()):
        found = sorted({f for by_subset in given for f in by_subset.values()})
        raise UserError(
            "truncation needs a subset answered at two context fractions at least (found "
            f"{found} per subset); give them with --fractions"
        )
    table: dict[str, dict[str, Any]] = {}
    notes: list[str] = []
    for (task, subset), by_fraction in sorted(collected.items()):
        if len(by_fraction) < 2:
            kept = next(iter(by_fraction))
            notes.append(f"{task} {subset}: every run kept {kept:.0%} of its context: no cut")
            continue
        if not set.intersection(*(set(v) for v in by_fraction.values())):
            notes.append(f"{task} {subset}: not scored at two fractions on shared samples")
            continue
        entry = _group_rows(by_fraction, threshold)
        table.setdefault(task, {})[subset] = entry
        for row in entry["rows"][1:]:
            share = "" if row["relative_drop"] is None else f" ({row['relative_drop']:.0%})"
            notes.append(
                f"{task} {subset}: {row['fraction']:.0%} of the context -> drop "
                f"{row['drop']:.2f}{share} (n={entry['n']})"
            )
        if entry["insensitive"]:
            notes.append(
                f"RELEASE CHECK {task} {subset}: the score moves by less than {threshold:.0%} with "
                "half the context or more gone; it does not measure long-context use"
            )
    series = {
        f"{task} {subset}": ([r["fraction"] for r in e["rows"]], [r["mean"] for r in e["rows"]])
        for task, by_subset in table.items()
        for subset, e in by_subset.items()
    }
    plot = line_plot(
        out / f"{NAME}_score_by_fraction.png",
        series,
        title="Score with the context cut",
        xlabel="fraction of the context kept",
        ylabel="mean score x100",
    )
    document: dict[str, Any] = {
        # Per run the mean over its subsets (what the release check's card lists); the
        # fraction each subset was compared at is in its rows and in `subset_fractions`.
        "fractions": {
            r.label: round(sum(f.values()) / len(f), 3) if f else 1.0
            for r, f in zip(runs, given, strict=True)
        },
        "subset_fractions": {r.label: f for r, f in zip(runs, given, strict=True)},
        "threshold": threshold,
        "tasks": table,
    }
    return AnalysisOutput(NAME, document, [plot], notes)
