"""Positional traceability: where in the context each summary sentence comes from.

Each output is split into sentences and its context into fixed-size passages
(`positions.passages`); every sentence is mapped to its most similar passage by TF-IDF
and by sentence embeddings (`similarity`; a passage scores as its closest sentence,
see `tracing`). The table gives, per run, subset and prompt,
the share of sentences sourced from the beginning / middle / end thirds and from each
decile, beside the same shares for the reference summaries (the baseline: where people
who read the whole text took their sentences from). Subsets are in length order, so
the beginning-third share read along them shows how sourcing shifts as context grows.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from lengthwise.evaluation.analyses.output import AnalysisOutput
from lengthwise.evaluation.analyses.plots import line_plot, safe_name
from lengthwise.evaluation.analyses.positions import (
    DECILES,
    THIRDS,
    shares,
    summary_sentences,
)
from lengthwise.evaluation.analyses.run_data import SUMMARIZATION, AnalysedRun, RunItem
from lengthwise.evaluation.analyses.similarity import (
    METHODS,
    Method,
    method_used,
)
from lengthwise.evaluation.analyses.tracing import trace
from lengthwise.evaluation.json_types import JsonObject

NAME: Final = "traceability"
REFERENCE: Final = "reference"


def trace_positions(text: str, context: str, language: str, method: Method) -> list[float]:
    """The position in [0, 1] of the passage each sentence of `text` is most similar to."""
    traced = trace(summary_sentences(text, language), context, language, method)
    return [found[0].position for found in traced if found is not None]


@dataclass(frozen=True)
class Distribution:
    """Where the traced sentences of some answers (or references) sit in their contexts."""

    samples: int
    sentences: int
    thirds: dict[str, float]  # beginning / middle / end -> share of sentences
    deciles: list[float]
    mean_position: float | None

    def to_json(self) -> JsonObject:
        return {
            "samples": self.samples,
            "sentences": self.sentences,
            "thirds": dict(self.thirds),
            "deciles": list(self.deciles),
            "mean_position": self.mean_position,
        }


@dataclass(frozen=True)
class RunTrace:
    """One run under one method: subset -> prompt (or the reference) -> distribution."""

    method_used: list[str]
    subsets: dict[str, dict[str, Distribution]]

    def to_json(self) -> JsonObject:
        return {
            "method_used": list(self.method_used),
            "subsets": {
                subset: {prompt: d.to_json() for prompt, d in by_prompt.items()}
                for subset, by_prompt in self.subsets.items()
            },
        }


def distribution(positions: Sequence[float], samples: int) -> Distribution:
    thirds = shares(positions, 3)
    return Distribution(
        samples=samples,
        sentences=len(positions),
        thirds=dict(zip(THIRDS, thirds, strict=True)),
        deciles=shares(positions, DECILES),
        mean_position=sum(positions) / len(positions) if positions else None,
    )


def traceable(item: RunItem) -> bool:
    return item.task == SUMMARIZATION and item.context is not None


def _subset_order(runs: Sequence[AnalysedRun]) -> list[str]:
    order: dict[str, int] = {}
    for run in runs:
        targets = run.results.subset_targets
        for subset in run.results.subset_order:
            order.setdefault(subset, targets.get(subset, 0))
        for item in run.items:
            order.setdefault(item.subset, 0)
    return sorted(order, key=lambda s: (order[s], s))


def _trace_run(run: AnalysedRun, method: Method, dropped: Counter[str]) -> RunTrace:
    groups: dict[tuple[str, str], list[float]] = {}
    counts: Counter[tuple[str, str]] = Counter()
    references: dict[str, dict[str, list[float]]] = {}
    languages: set[str] = set()
    for item in run.items:
        if not traceable(item):
            dropped[f"{run.label}: not a summary or no context"] += 1
            continue
        assert item.context is not None
        languages.add(item.language)
        positions = trace_positions(item.prediction, item.context, item.language, method)
        if not positions:
            dropped[f"{run.label}: output without a traceable sentence"] += 1
        groups.setdefault((item.subset, item.prompt_id), []).extend(positions)
        counts[(item.subset, item.prompt_id)] += 1
        by_sample = references.setdefault(item.subset, {})
        if item.reference and item.sample_id not in by_sample:
            by_sample[item.sample_id] = trace_positions(
                item.reference, item.context, item.language, method
            )
    by_subset: dict[str, dict[str, Distribution]] = {}
    for (subset, prompt), positions in groups.items():
        by_subset.setdefault(subset, {})[prompt] = distribution(positions, counts[subset, prompt])
    for subset, by_sample in references.items():
        flat = [p for positions in by_sample.values() for p in positions]
        by_subset.setdefault(subset, {})[REFERENCE] = distribution(flat, len(by_sample))
    used = sorted({method_used(method, lang) for lang in languages})
    return RunTrace(used, by_subset)


def _plots(table: Mapping[str, dict[str, RunTrace]], subsets: list[str], out: Path) -> list[Path]:
    made: list[Path] = []
    for method, by_run in table.items():
        curves: dict[str, tuple[list[float], list[float | None]]] = {}
        growth: dict[str, tuple[list[float], list[float | None]]] = {}
        dashed: list[str] = []
        for label, entry in by_run.items():
            for subset, by_prompt in entry.subsets.items():
                for prompt, dist in by_prompt.items():
                    name = f"{label} {subset} {prompt}"
                    curves[name] = ([d + 0.5 for d in range(DECILES)], list(dist.deciles))
                    if prompt == REFERENCE:
                        dashed.append(name)
            prompts = {p for by_prompt in entry.subsets.values() for p in by_prompt}
            for prompt in sorted(prompts):
                name = f"{label} {prompt}"
                found = [entry.subsets.get(s, {}).get(prompt) for s in subsets]
                values = [None if d is None else d.thirds.get("beginning") for d in found]
                growth[name] = (list(range(len(subsets))), values)
                if prompt == REFERENCE:
                    dashed.append(name)
        made.append(
            line_plot(
                out / f"{NAME}_deciles_{safe_name(method)}.png",
                curves,
                title=f"Where summary sentences come from ({method})",
                xlabel="source decile of the context",
                ylabel="share of sentences",
                dashed=dashed,
                xticks=[(d + 0.5, f"{10 * d}-{10 * d + 10}%") for d in range(DECILES)],
            )
        )
        made.append(
            line_plot(
                out / f"{NAME}_beginning_share_{safe_name(method)}.png",
                growth,
                title=f"Share sourced from the first third, by subset ({method})",
                xlabel="subset (shortest first)",
                ylabel="share of sentences",
                dashed=dashed,
                xticks=[(i, s) for i, s in enumerate(subsets)],
            )
        )
    return made


def analyse(
    runs: Sequence[AnalysedRun], out: Path, *, methods: Sequence[Method] = METHODS
) -> AnalysisOutput:
    """The traceability table (method -> run -> subset -> prompt|reference) and plots."""
    dropped: Counter[str] = Counter()
    table: dict[str, dict[str, RunTrace]] = {
        m: {
            run.label: _trace_run(run, m, dropped if m == methods[0] else Counter()) for run in runs
        }
        for m in methods
    }
    subsets = _subset_order(runs)
    notes = [f"not traced: {count} x {reason}" for reason, count in sorted(dropped.items())]
    for method, by_run in table.items():
        for label, entry in by_run.items():
            for subset, by_prompt in entry.subsets.items():
                for prompt, dist in by_prompt.items():
                    thirds = " / ".join(f"{dist.thirds[t]:.0%}" for t in THIRDS)
                    notes.append(
                        f"{method} {label} {subset} {prompt}: beginning/middle/end {thirds} "
                        f"({dist.sentences} sentences, {dist.samples} samples)"
                    )
    document: JsonObject = {
        "methods": {
            method: {label: trace.to_json() for label, trace in by_run.items()}
            for method, by_run in table.items()
        },
        "subset_order": list(subsets),
        "dropped": dict(dropped),
    }
    return AnalysisOutput(NAME, document, _plots(table, subsets, out), notes)
