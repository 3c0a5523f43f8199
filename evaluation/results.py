"""results.json: per subset and prompt, the mean score, its interval and every outcome.

Which answers count: each planned (sample, prompt) uses the last generations line
written for exactly its request. Scores are averaged over every answered pair, failures
included (empty, blocked, over-length answers score 0, as CNNSum counts them); pairs
skipped by the plan and pairs that ended in `error` are left out of the mean and
shown in `outcomes`. Means and intervals are x100.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field

from lengthwise.evaluation.generation import Generation, LineKey
from lengthwise.evaluation.json_types import JsonObject
from lengthwise.evaluation.planning import Plan, PlannedItem
from lengthwise.evaluation.samples import SUMMARIZATION, ReleaseData
from lengthwise.evaluation.scoring import (
    bootstrap_ci,
    ib_ie_msd,
    ib_ie_squared_differences,
    length_drop,
    mean,
    paired_comparison,
)
from lengthwise.evaluation.task_results import task_tables
from lengthwise.evaluation.tasks.base import EvalTask

SCALE = 100.0
IB_IE = ("IB", "IE")
ResultsDocument = JsonObject  # results.json as written


@dataclass
class SubsetResult:
    """One summary subset under one prompt (x100)."""

    n: int = 0
    planned: int = 0
    mean: float | None = None
    ci: list[float] | None = None
    outcomes: dict[str, int] = field(default_factory=dict)
    flags: dict[str, int] = field(default_factory=dict)
    missing: int = 0
    scores: dict[str, float] = field(default_factory=dict)  # sample id -> x100 (not written)

    def to_json(self) -> JsonObject:
        data: JsonObject = asdict(self)
        del data["scores"]
        return data


Table = dict[str, dict[str, SubsetResult]]  # subset -> prompt -> result


def summarise(
    *,
    plan: Plan,
    lines: Mapping[LineKey, Generation],
    keys: Mapping[LineKey, str],
    release: ReleaseData,
    tasks: Mapping[str, EvalTask],
    header: JsonObject,
    usage: JsonObject,
    resamples: int,
    seed: int,
) -> ResultsDocument:
    """The whole results.json document: the summary tables (`results`, `analysis`) over
    the summary subsets, as before tasks existed, and `tasks` for every task run."""
    summary_items = [item for item in plan.items if item.sample.family == SUMMARIZATION]
    prompts = list(dict.fromkeys(item.prompt.id for item in summary_items))
    subsets = [
        name
        for name, rows in release.subsets.items()
        if any(s.family == SUMMARIZATION for s in rows)
    ]
    table = _tally(summary_items, lines, keys, subsets, prompts)
    for by_prompt in table.values():
        for result in by_prompt.values():
            values = list(result.scores.values())
            ci = bootstrap_ci(values, resamples=resamples, seed=seed) if values else None
            result.n, result.mean, result.ci = len(values), mean(values), list(ci) if ci else None
            result.outcomes = dict(sorted(result.outcomes.items()))
            result.flags = dict(sorted(result.flags.items()))
    complete = all(
        (line := lines.get(item.key)) is not None
        and line.request_key == keys[item.key]
        and line.outcome != "error"
        for item in plan.items
    )
    tables = task_tables(plan, lines, keys, release, tasks, resamples=resamples, seed=seed)
    body: JsonObject = {
        "complete": complete,
        "subset_order": list(subsets),
        "subset_targets": {s: t for s, t in release.subset_targets().items() if s in subsets},
        "unscorable_samples": dict(release.unscorable),
        "plan": plan.to_dict(),
        "results": {s: {p: r.to_json() for p, r in by.items()} for s, by in table.items()},
        "analysis": _analysis(table, subsets, prompts, resamples, seed),
        "tasks": {name: t.to_json() for name, t in tables.items()},
        "usage": usage,
    }
    return header | body


def _tally(
    items: Sequence[PlannedItem],
    lines: Mapping[LineKey, Generation],
    keys: Mapping[LineKey, str],
    subsets: list[str],
    prompts: list[str],
) -> Table:
    """Per subset and prompt (the plan's prompt order in every subset): planned, outcome
    and flag counts, missing lines (absent, or answered for another request key), and the
    scores (x SCALE) by sample id."""
    planned = {(item.sample.subset, item.prompt.id) for item in items}
    table: Table = {s: {p: SubsetResult() for p in prompts if (s, p) in planned} for s in subsets}
    for item in items:
        subset, sample_id, prompt_id = item.key
        result = table[subset][prompt_id]
        result.planned += 1
        line = lines.get(item.key)
        if line is None or line.request_key != keys[item.key]:
            result.missing += 1
            continue
        result.outcomes[line.outcome] = result.outcomes.get(line.outcome, 0) + 1
        for flag in line.flags:
            result.flags[flag] = result.flags.get(flag, 0) + 1
        if line.score is not None:
            result.scores[sample_id] = float(line.score) * SCALE
    return table


def _analysis(
    table: Table, subsets: list[str], prompts: list[str], resamples: int, seed: int
) -> JsonObject:
    def means(prompt_id: str) -> dict[str, float | None]:
        return {s: r.mean if (r := table[s].get(prompt_id)) else None for s in subsets}

    def scores(subset: str, prompt_id: str) -> dict[str, float]:
        result = table[subset].get(prompt_id)
        return result.scores if result else {}

    analysis: JsonObject = {
        "length_drop": {p: length_drop([(s, means(p)[s]) for s in subsets]) for p in prompts}
    }
    if all(p in prompts for p in IB_IE):
        ib, ie = means("IB"), means("IE")
        analysis["ib_ie"] = {
            "squared_differences": dict(ib_ie_squared_differences(ib, ie)),
            "msd": ib_ie_msd(ib, ie),
            "definition": "mean over subsets of (mean IB - mean IE)^2, x100 scale",
        }
        paired: JsonObject = {}
        for subset in subsets:
            comparison = paired_comparison(
                scores(subset, "IB"), scores(subset, "IE"), resamples=resamples, seed=seed
            )
            paired[subset] = comparison.to_dict() if comparison else None
        analysis["paired_ie_minus_ib"] = paired
    return analysis


def sample_scores(
    generation_lines: list[Generation],
) -> dict[tuple[str, str], dict[str, float]]:
    """(subset, prompt) -> sample id -> score x100, from the last line per pair."""
    latest = {line.key: line for line in generation_lines}
    table: dict[tuple[str, str], dict[str, float]] = {}
    for (subset, sample_id, prompt_id), line in latest.items():
        if line.score is not None:
            table.setdefault((subset, prompt_id), {})[sample_id] = float(line.score) * SCALE
    return table
