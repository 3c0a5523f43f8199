"""Training data the way CNNSum fine-tuned: short (excerpt, summary) pairs packed into long
samples whose context length falls within a token interval (e.g. 14k-18k).

Packing is first-fit over a few open samples: pairs are taken in a seeded shuffled order,
each goes into the first open sample it fits (its excerpt plus one separator must keep the
sample at or below ``upper``), a sample is closed as soon as it reaches ``lower``, and a pair
that fits nowhere opens a new sample. The context joins the excerpts in packing order with
``separator``; the target joins the summaries in the same order, numbered "1. ", "2. ", ...
unless ``numbered`` is false. Every closed sample is recounted exactly (a tokenizer may
merge tokens across a joint) and kept only if that count is within [lower, upper].
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

TOO_LONG = "excerpt alone longer than upper"
EMPTY = "empty excerpt or summary"
UNFILLED = "left over: not enough fitting pairs to reach lower"
ABANDONED = "abandoned: too many samples open at once without reaching lower"
RECOUNT = "joined context recounted outside [lower, upper]"


@dataclass(frozen=True)
class PackedSample:
    """One long training sample; ``members`` are indices into the input pairs, in order."""

    context: str
    target: str
    members: tuple[int, ...]
    tokens: int  # exact count of ``context``

    def to_dict(self) -> dict[str, Any]:
        return {
            "context": self.context,
            "target": self.target,
            "members": list(self.members),
            "tokens": self.tokens,
        }


@dataclass(frozen=True)
class DroppedPair:
    index: int
    reason: str
    tokens: int | None  # excerpt tokens, when counted


@dataclass(frozen=True)
class PackingResult:
    samples: list[PackedSample]
    dropped: list[DroppedPair]

    def to_dict(self) -> dict[str, Any]:
        """Counts for a report (the samples themselves go to a data file)."""
        return {
            "samples": len(self.samples),
            "packed_pairs": sum(len(s.members) for s in self.samples),
            "dropped": dict(sorted(Counter(d.reason for d in self.dropped).items())),
        }


@dataclass
class _OpenSample:
    members: list[int] = field(default_factory=list)
    tokens: int = 0  # summed estimate: excerpts plus separators


def _check_packing(lower: int, upper: int, max_open: int) -> None:
    if not 0 < lower <= upper:
        raise ValueError(f"packing bounds must satisfy 0 < lower <= upper, got [{lower}, {upper}]")
    if max_open < 1:
        raise ValueError(f"max_open must be at least 1, got {max_open}")


def _place(
    open_samples: list[_OpenSample], index: int, cost: int, separator_tokens: int, upper: int
) -> _OpenSample:
    """Add pair `index` to the first open sample it fits in (first fit), else to a new one."""
    target = next((s for s in open_samples if s.tokens + separator_tokens + cost <= upper), None)
    if target is None:
        target = _OpenSample()
        open_samples.append(target)
    else:
        target.tokens += separator_tokens
    target.members.append(index)
    target.tokens += cost
    return target


def pack_pairs(
    pairs: Sequence[tuple[str, str]],
    count_tokens: Callable[[str], int],
    lower: int,
    upper: int,
    seed: int,
    *,
    separator: str = "\n\n",
    numbered: bool = True,
    max_open: int = 32,
) -> PackingResult:
    """Pack ``pairs`` into samples with ``lower <= count_tokens(context) <= upper``.

    Pairs that cannot be used are listed in ``dropped`` with a reason (too long alone, empty,
    left over at the end, or their sample failed the exact recount). ``max_open`` bounds the
    samples kept open at once (packing stays linear when excerpts are large relative to
    ``upper - lower``): beyond it the oldest is abandoned. Deterministic for a ``seed``.
    """
    _check_packing(lower, upper, max_open)
    order = list(range(len(pairs)))
    random.Random(seed).shuffle(order)
    separator_tokens = count_tokens(separator) if separator else 0
    excerpt_tokens: dict[int, int] = {}
    samples: list[PackedSample] = []
    dropped: list[DroppedPair] = []
    open_samples: list[_OpenSample] = []

    def drop_all(members: Sequence[int], reason: str) -> None:
        dropped.extend(DroppedPair(i, reason, excerpt_tokens.get(i)) for i in members)

    def close(sample: _OpenSample) -> None:
        context = separator.join(pairs[i][0] for i in sample.members)
        tokens = count_tokens(context)
        if not lower <= tokens <= upper:
            drop_all(sample.members, RECOUNT)
            return
        summaries = [pairs[i][1] for i in sample.members]
        if numbered:
            summaries = [f"{k}. {text}" for k, text in enumerate(summaries, start=1)]
        joined_target = separator.join(summaries)
        samples.append(PackedSample(context, joined_target, tuple(sample.members), tokens))

    for index in order:
        excerpt, summary = pairs[index]
        if not excerpt.strip() or not summary.strip():
            drop_all([index], EMPTY)
            continue
        cost = excerpt_tokens[index] = count_tokens(excerpt)
        if cost > upper:
            drop_all([index], TOO_LONG)
            continue
        target = _place(open_samples, index, cost, separator_tokens, upper)
        if target.tokens >= lower:
            open_samples.remove(target)
            close(target)
        elif len(open_samples) > max_open:
            drop_all(open_samples.pop(0).members, ABANDONED)
    for sample in open_samples:
        drop_all(sample.members, UNFILLED)
    return PackingResult(samples, dropped)
