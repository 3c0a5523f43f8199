"""Perplexity ranking for ordering tasks (Ada-LEval), with a local transformers model.

An ordering item gives segments and their true order (generations line fields
`segments` and `gold_order`, a list of segment indices). Candidate orders (every
permutation up to `max_candidates`, else the true order, the model's own answer when it
parsed one (`predicted_order`) and seeded random permutations) are ranked by the
model's log-likelihood of the segments joined in that order; the top one is the
perplexity prediction. Its accuracy (share of items where it is the true order) is
compared with the generative accuracy of the run (the items' mean score).
"""

from __future__ import annotations

import functools
import itertools
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from lengthwise.evaluation.analyses.output import AnalysisOutput
from lengthwise.evaluation.analyses.plots import bar_plot
from lengthwise.evaluation.analyses.run_data import AnalysedRun
from lengthwise.evaluation.json_types import JsonObject
from lengthwise.extras import require

NAME: Final = "perplexity"
Order = tuple[int, ...]
Scorer = Callable[[str], float]  # text -> log-likelihood


@dataclass
class OrderingGroup:
    """One run's ordering items of one subset: how often each way of answering is right."""

    ppl_correct: list[bool] = field(default_factory=list)  # the top-ranked order is true
    generative: list[float] = field(default_factory=list)  # the model's answer scores
    gold_rank: list[int] = field(default_factory=list)  # rank of the true order (1 = top)
    candidates: list[int] = field(default_factory=list)  # orders ranked per item

    @property
    def chance(self) -> float:
        """x100: the chance that a random ranking puts the true order first."""
        return 100.0 * sum(1 / c for c in self.candidates) / len(self.candidates)

    @property
    def n(self) -> int:
        return len(self.gold_rank)

    @property
    def perplexity_accuracy(self) -> float:
        return 100.0 * sum(self.ppl_correct) / self.n

    @property
    def generative_accuracy(self) -> float:
        return 100.0 * sum(self.generative) / len(self.generative)

    @property
    def mean_gold_rank(self) -> float:
        return sum(self.gold_rank) / len(self.gold_rank)

    def to_json(self) -> JsonObject:
        return {
            "n": self.n,
            "perplexity_accuracy": self.perplexity_accuracy,
            "generative_accuracy": self.generative_accuracy,
            "mean_gold_rank": self.mean_gold_rank,
            "chance": self.chance,
            "candidates": max(self.candidates),
        }


def candidate_orders(
    size: int, gold: Order, predicted: Order | None, max_candidates: int, seed: int
) -> list[Order]:
    """Every permutation when there are few; else gold, the prediction and random ones."""
    indices = tuple(range(size))
    if size <= 7:
        every = list(itertools.permutations(indices))
        if len(every) <= max_candidates:
            return every
    found: dict[Order, None] = {gold: None}
    if predicted is not None and sorted(predicted) == list(indices):
        found[predicted] = None
    rng = random.Random(seed)
    while len(found) < max_candidates:
        shuffled = list(indices)
        rng.shuffle(shuffled)
        found[tuple(shuffled)] = None
    return list(found)


@functools.cache
def _loaded(model_dir: str) -> tuple[Any, Any]:
    require("perplexity ranking", "torch", "transformers")
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(model_dir)
    model = AutoModelForCausalLM.from_pretrained(model_dir)
    model.eval()  # type: ignore[no-untyped-call]
    return tokenizer, model


def transformers_scorer(model_dir: Path) -> Scorer:
    """Log-likelihood (sum over tokens after the first) under a local causal LM."""

    def score(text: str) -> float:
        import torch

        tokenizer, model = _loaded(str(model_dir))
        limit = int(getattr(model.config, "max_position_embeddings", 4096))
        ids = tokenizer(text, return_tensors="pt").input_ids[:, :limit]
        if ids.shape[1] < 2:
            return 0.0
        with torch.no_grad():
            loss = model(input_ids=ids, labels=ids).loss
        return -float(loss) * float(ids.shape[1] - 1)

    return score


def rank_item(
    segments: list[str], candidates: list[Order], scorer: Scorer, separator: str = "\n"
) -> list[tuple[Order, float]]:
    scored = [(c, scorer(separator.join(segments[i] for i in c))) for c in candidates]
    return sorted(scored, key=lambda entry: -entry[1])


def _progress(done: int, total: int, texts: int, elapsed: float) -> None:
    """One line per item on stderr: how far, how many texts scored, about how long left."""
    left = elapsed / done * (total - done)
    print(
        f"perplexity: {done}/{total} items, {texts} texts scored, {elapsed:.0f} s, "
        f"about {left:.0f} s left",
        file=sys.stderr,
        flush=True,
    )


def analyse(
    runs: Sequence[AnalysedRun],
    out: Path,
    *,
    scorer: Scorer,
    model_name: str,
    max_candidates: int = 24,
    seed: int = 0,
) -> AnalysisOutput:
    table: dict[str, dict[str, OrderingGroup]] = {}
    notes: list[str] = []
    scored: dict[str, float] = {}  # candidate text -> score: each text once (IB and IE share)

    def once(text: str) -> float:
        if text not in scored:
            scored[text] = scorer(text)
        return scored[text]

    ordering = [(run, item) for run in runs for item in run.items if item.ordering is not None]
    started = time.monotonic()
    for done, (run, item) in enumerate(ordering, start=1):
        if item.ordering is None:  # typing: filtered above
            continue
        segments, gold = item.ordering.segments, item.ordering.gold_order
        candidates = candidate_orders(
            len(segments), gold, item.ordering.predicted_order, max_candidates, seed
        )
        ranked = rank_item(segments, candidates, once)
        group = table.setdefault(run.label, {}).setdefault(item.subset, OrderingGroup())
        group.ppl_correct.append(ranked[0][0] == gold)
        group.gold_rank.append(1 + [c for c, _ in ranked].index(gold))
        group.generative.append(item.score or 0.0)
        group.candidates.append(len(candidates))
        _progress(done, len(ordering), len(scored), time.monotonic() - started)
    skipped = sum(len(run.items) for run in runs) - len(ordering)
    for label, by_subset in table.items():
        for subset, group in by_subset.items():
            notes.append(
                f"{label} {subset}: perplexity {group.perplexity_accuracy:.1f} vs generative "
                f"{group.generative_accuracy:.1f} (n={group.n}, mean rank of the true "
                f"order {group.mean_gold_rank:.1f})"
            )
    if skipped:
        notes.append(f"{skipped} lines are not ordering items (no segments/gold_order): left out")
    categories = [f"{label} {s}" for label, by in table.items() for s in by]
    rows = [table[c.rsplit(" ", 1)[0]][c.rsplit(" ", 1)[1]] for c in categories]
    ranked_by = f"perplexity ranking ({Path(model_name).name})"
    sizes = sorted({c for r in rows for c in r.candidates})
    counted = f"{sizes[0]}-{sizes[-1]}" if len(sizes) > 1 else str(sizes[0]) if sizes else "0"
    plot = bar_plot(
        out / f"{NAME}_accuracy.png",
        categories or ["(no ordering items)"],
        {
            ranked_by: [r.perplexity_accuracy for r in rows] or [0.0],
            "generative (the run's model)": [r.generative_accuracy for r in rows] or [0.0],
        },
        title=f"Ordering: perplexity ranking of {counted} candidate orders vs generation",
        ylabel="accuracy x100",
        counts={ranked_by: [r.n for r in rows]} if rows else None,
        chance=sum(r.chance * r.n for r in rows) / sum(r.n for r in rows) if rows else None,
    )
    document: JsonObject = {
        "model": model_name,
        "max_candidates": max_candidates,
        "runs": {
            label: {subset: group.to_json() for subset, group in by.items()}
            for label, by in table.items()
        },
        "not_ordering_lines": skipped,
    }
    return AnalysisOutput(NAME, document, [plot], notes)
