"""results.json: per subset and prompt, the mean score, its interval and every outcome.

Which answers count: each planned (sample, prompt) uses the last generations line
written for exactly its request. Scores are averaged over every answered pair, failures
included (empty, blocked, over-length answers score 0, as CNNSum counts them); pairs
skipped by the plan and pairs that ended in `error` are left out of the mean and
shown in `outcomes`. Means and intervals are x100.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from lengthwise.evaluation.generation import Generation, LineKey
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
ResultsDocument = dict[str, Any]  # results.json as written


def summarise(
    *,
    plan: Plan,
    lines: Mapping[LineKey, Generation],
    keys: Mapping[LineKey, str],
    release: ReleaseData,
    tasks: Mapping[str, EvalTask],
    header: dict[str, Any],
    usage: dict[str, Any],
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
    groups, scores = _tally(summary_items, lines, keys, subsets, prompts)
    table: dict[str, dict[str, Any]] = {}
    complete = all(
        (line := lines.get(item.key)) is not None
        and line.request_key == keys[item.key]
        and line.outcome != "error"
        for item in plan.items
    )
    for subset in subsets:
        table[subset] = {}
        for prompt_id in prompts:  # the plan's prompt order, in every subset
            group = groups.get(subset, {}).get(prompt_id)
            if group is None:
                continue
            values = list(scores[subset][prompt_id].values())
            ci = bootstrap_ci(values, resamples=resamples, seed=seed) if values else None
            outcomes = dict(sorted(group["outcomes"].items()))
            table[subset][prompt_id] = {
                "n": len(values),
                "planned": group["planned"],
                "mean": mean(values),
                "ci": list(ci) if ci else None,
                "outcomes": outcomes,
                "flags": dict(sorted(group["flags"].items())),
                "missing": group["missing"],
            }

    return header | {
        "complete": complete,
        "subset_order": subsets,
        "subset_targets": {s: t for s, t in release.subset_targets().items() if s in subsets},
        "unscorable_samples": release.unscorable,
        "plan": plan.to_dict(),
        "results": table,
        "analysis": _analysis(table, scores, subsets, prompts, resamples, seed),
        "tasks": {
            name: t.to_json()
            for name, t in task_tables(
                plan, lines, keys, release, tasks, resamples=resamples, seed=seed
            ).items()
        },
        "usage": usage,
    }


def _tally(
    items: Sequence[PlannedItem],
    lines: Mapping[LineKey, Generation],
    keys: Mapping[LineKey, str],
    subsets: list[str],
    prompts: list[str],
) -> tuple[dict[str, dict[str, dict[str, Any]]], dict[str, dict[str, dict[str, float]]]]:
    """Per subset and prompt: planned, outcome and flag counts, missing lines (absent, or
    answered for another request key), and the scores (x SCALE) by sample id."""
    scores: dict[str, dict[str, dict[str, float]]] = {s: {p: {} for p in prompts} for s in subsets}
    groups: dict[str, dict[str, dict[str, Any]]] = {}
    for item in items:
        subset, sample_id, prompt_id = item.key
        group = groups.setdefault(subset, {}).setdefault(
            prompt_id,
            {"planned": 0, "outcomes": Counter[str](), "flags": Counter[str](), "missing": 0},
        )
        group["planned"] += 1
        line = lines.get(item.key)
        if line is None or line.request_key != keys[item.key]:
            group["missing"] += 1
            continue
        group["outcomes"][line.outcome] += 1
        group["flags"].update(line.flags)
        if line.score is not None:
            scores[subset][prompt_id][sample_id] = float(line.score) * SCALE
    return groups, scores


def _analysis(
    table: dict[str, dict[str, Any]],
    scores: dict[str, dict[str, dict[str, float]]],
    subsets: list[str],
    prompts: list[str],
    resamples: int,
    seed: int,
) -> dict[str, Any]:
    def means(prompt_id: str) -> dict[str, float | None]:
        return {s: table[s].get(prompt_id, {}).get("mean") for s in subsets}

    analysis: dict[str, Any] = {
        "length_drop": {p: length_drop([(s, means(p)[s]) for s in subsets]) for p in prompts}
    }
    if all(p in prompts for p in IB_IE):
        ib, ie = means("IB"), means("IE")
        analysis["ib_ie"] = {
            "squared_differences": ib_ie_squared_differences(ib, ie),
            "msd": ib_ie_msd(ib, ie),
            "definition": "mean over subsets of (mean IB - mean IE)^2, x100 scale",
        }
        paired = {}
        for subset in subsets:
            comparison = paired_comparison(
                scores[subset]["IB"], scores[subset]["IE"], resamples=resamples, seed=seed
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
