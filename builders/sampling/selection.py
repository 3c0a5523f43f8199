"""Final selection: pick ``count`` candidate runs per subset, balanced across books.

The algorithm, deterministic for a seed:

1. **Balanced draft.** Books are ordered by ascending candidate count (ties: a shuffle seeded
   by the seed and the subset name through SHA-256, so neither Python's salted ``hash()`` nor
   the input order matters). Within a book, candidates are ordered by preference tier (used
   by nested selection, otherwise all equal), then by distance to the target, then by first
   chapter. Picks go round-robin over the books, one per book per round, until ``count``.
   Round-robin is water-filling: its largest per-book count is the smallest any selection of
   ``count`` runs can have, so books with few candidates are all used and none dominates.
2. **Per-book cap.** When at least three books have candidates and a selection with no book
   above ``max_book_share`` (40 %) exists, that share becomes a hard cap for step 3.
3. **Q1 repair.** While Q1 of the selected lengths is below ``q1_min_ratio x target``, the
   shortest selected run below that threshold is swapped for an unselected run at or above
   it: from the same book if possible (book counts unchanged), else from the book with the
   fewest selected runs still under the cap. A swap replaces a length by a larger one, so no
   order statistic (Q1 included) goes down; the repair stops only when no swap is left,
   which is when the number of runs at or above the threshold is the most the cap allows.
   So Q1 reaches the threshold whenever the candidates (and the cap) allow it.

Quantiles follow ``lengthwise.builders.sampling.stats.quantile`` (linear, inclusive).
"""

from __future__ import annotations

import hashlib
import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from lengthwise.builders.sampling.candidates import CandidateSet
from lengthwise.builders.sampling.runs import ChapterRun
from lengthwise.builders.sampling.stats import quantile
from lengthwise.builders.sampling.windows import nesting_order
from lengthwise.spec import SubsetSpec

MAX_BOOK_SHARE = 0.4
MIN_BOOKS_FOR_CAP = 3


def stable_seed(seed: int, name: str) -> int:
    """A per-subset seed that is the same on every machine and Python run."""
    digest = hashlib.sha256(f"{seed}\x00{name}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


@dataclass(frozen=True)
class Selection:
    """The runs chosen for one subset, sorted by (book_id, first).

    ``book_cap``: the per-book limit that was enforced (None when the 40 % rule did not apply
    or could not be met). ``notes``: why a goal (Q1, balance) was not reached, if so.
    """

    subset: SubsetSpec
    samples: tuple[ChapterRun, ...]
    candidates: int
    q1_threshold: float
    book_cap: int | None
    shortfall: str | None
    notes: tuple[str, ...]

    @property
    def q1(self) -> float | None:
        if not self.samples:
            return None
        return quantile(sorted(run.tokens for run in self.samples), 0.25)


def _by_book(runs: Sequence[ChapterRun]) -> dict[str, list[ChapterRun]]:
    books: dict[str, list[ChapterRun]] = {}
    seen: set[tuple[str, int, int]] = set()
    for run in sorted(runs, key=lambda r: (r.book_id, r.first, r.last)):
        key = (run.book_id, run.first, run.last)
        if key in seen:
            raise ValueError(f"candidate {run.id} appears more than once")
        seen.add(key)
        books.setdefault(run.book_id, []).append(run)
    return books


def _book_cap(sizes: Sequence[int], total: int, share: float) -> int | None:
    """The 40 % cap when it applies and can be met, else None."""
    cap = math.floor(share * total + 1e-9)
    if len(sizes) < MIN_BOOKS_FOR_CAP or sum(min(size, cap) for size in sizes) < total:
        return None
    return cap


def select_samples(
    candidates: Sequence[ChapterRun],
    subset: SubsetSpec,
    seed: int,
    q1_min_ratio: float = 0.9,
    *,
    max_book_share: float = MAX_BOOK_SHARE,
    tiers: Mapping[str, int] | None = None,
) -> Selection:
    """Pick ``subset.count`` runs from ``candidates`` (see the module doc for the rules).

    ``tiers`` maps run ids to a preference tier within their book (lower first; missing ids
    rank after every listed one); nested selection uses it to favour runs inside selected
    longer runs. With fewer candidates than ``count`` all are kept and ``shortfall`` says so.
    """
    if not 0 < q1_min_ratio <= 1:
        raise ValueError(f"q1_min_ratio must be within (0, 1], got {q1_min_ratio}")
    books = _by_book(candidates)
    total_candidates = sum(len(runs) for runs in books.values())
    threshold = q1_min_ratio * subset.target
    trivial = _keep_all_or_none(subset, books, total_candidates, threshold)
    if trivial is not None:
        return trivial
    count = subset.count
    draft = _round_robin(books, subset, seed, tiers or {})  # step 1
    cap = _book_cap([len(runs) for runs in books.values()], count, max_book_share)
    notes: list[str] = []
    if cap is None and len(books) >= MIN_BOOKS_FOR_CAP:
        notes.append(
            f"no selection keeps every book at or below {max_book_share:.0%} of {count} "
            f"samples: the candidates are concentrated in few books"
        )
    q1 = draft.repair_q1(threshold, cap)  # step 3
    if q1 < threshold:
        notes.append(
            f"Q1 {q1:.0f} stays below {q1_min_ratio} x target = {threshold:.0f}: "
            "not enough candidates at or above it"
            + (f" within the per-book cap of {cap}" if cap is not None else "")
        )
    samples = tuple(sorted(draft.selected, key=lambda r: (r.book_id, r.first, r.last)))
    return Selection(subset, samples, total_candidates, threshold, cap, None, tuple(notes))


def _keep_all_or_none(
    subset: SubsetSpec, books: dict[str, list[ChapterRun]], total: int, threshold: float
) -> Selection | None:
    """The selection when there is nothing to choose: every candidate, or none wanted."""
    if total <= subset.count:
        shortfall = None
        if total < subset.count:
            shortfall = (
                f"subset {subset.name}: only {total} candidates for "
                f"{subset.count} requested; kept them all"
            )
        kept = tuple(run for runs in books.values() for run in runs)
        return Selection(subset, kept, total, threshold, None, shortfall, ())
    if subset.count == 0:
        return Selection(subset, (), total, threshold, None, None, ())
    return None


@dataclass
class _Draft:
    """The runs picked so far, per-book counts, and the book order the steps follow."""

    books: dict[str, list[ChapterRun]]  # runs per book, in preference order
    order: list[str]  # books with fewest candidates first, ties in seeded random order
    book_rank: dict[str, int]  # the seeded random rank of each book
    selected: set[ChapterRun]
    counts: Counter[str]

    def repair_q1(self, threshold: float, cap: int | None) -> float:
        """Swap short runs for unselected long ones until Q1 reaches `threshold` or no
        swap is left; return the final Q1."""
        long_queue = {
            book: [r for r in runs if r.tokens >= threshold and r not in self.selected]
            for book, runs in self.books.items()
        }
        while (q1 := quantile(sorted(run.tokens for run in self.selected), 0.25)) < threshold:
            swap = self._find_swap(long_queue, threshold, cap)
            if swap is None:
                break
            out, into = swap
            self.selected.remove(out)
            self.counts[out.book_id] -= 1
            self.selected.add(into)
            self.counts[into.book_id] += 1
            long_queue[into.book_id].pop(0)
        return q1

    def _find_swap(
        self, long_queue: dict[str, list[ChapterRun]], threshold: float, cap: int | None
    ) -> tuple[ChapterRun, ChapterRun] | None:
        """The shortest selected run below `threshold` and the long run replacing it: from
        its own book first, else from the least used book the cap still admits."""
        counts, rank = self.counts, self.book_rank
        shorts = sorted(
            (run for run in self.selected if run.tokens < threshold),
            key=lambda r: (r.tokens, -counts[r.book_id], rank[r.book_id], r.first),
        )
        for out in shorts:
            if long_queue[out.book_id]:
                return out, long_queue[out.book_id][0]
            receivers = [
                book
                for book in self.order
                if book != out.book_id
                and long_queue[book]
                and (cap is None or counts[book] + 1 <= cap)
            ]
            if receivers:
                best = min(receivers, key=lambda b: (counts[b], len(self.books[b]), rank[b]))
                return out, long_queue[best][0]
        return None


def _round_robin(
    books: dict[str, list[ChapterRun]], subset: SubsetSpec, seed: int, tiers: Mapping[str, int]
) -> _Draft:
    """Step 1: books in order take turns, each giving its next preferred run."""
    unlisted = max(tiers.values(), default=0) + 1
    for runs in books.values():
        runs.sort(key=lambda r: (tiers.get(r.id, unlisted), abs(r.tokens - subset.target), r.first))
    rng = random.Random(stable_seed(seed, subset.name))
    shuffled = sorted(books)
    rng.shuffle(shuffled)
    book_rank = {book: i for i, book in enumerate(shuffled)}
    order = sorted(books, key=lambda b: (len(books[b]), book_rank[b]))
    draft = _Draft(books, order, book_rank, set(), Counter())
    round_ = 0
    while len(draft.selected) < subset.count:
        for book in order:
            if round_ < len(books[book]) and len(draft.selected) < subset.count:
                draft.selected.add(books[book][round_])
                draft.counts[book] += 1
        round_ += 1
    return draft


def select_nested(
    candidate_sets: Mapping[str, CandidateSet], seed: int, q1_min_ratio: float = 0.9
) -> dict[str, Selection]:
    """Select every subset, longest first, favouring runs inside selected longer runs.

    Within each book, runs whose parent was selected come first, spread over parents (the
    best child of every selected parent, then the second best, ...), so selected longer
    samples tend to get a selected shorter sample inside them (a paired length series).
    Book balance and the Q1 repair apply as in ``select_samples``.
    """
    ordered = nesting_order([cs.subset for cs in candidate_sets.values()])
    chosen: dict[str, set[str]] = {}
    result: dict[str, Selection] = {}
    for subset in ordered:
        runs = candidate_sets[subset.name].runs
        children: dict[str, list[ChapterRun]] = {}
        for run in runs:
            if run.parent_id is not None and run.parent_id in chosen.get(
                run.parent_subset or "", set()
            ):
                children.setdefault(run.parent_id, []).append(run)
        tiers: dict[str, int] = {}
        for siblings in children.values():
            siblings.sort(key=lambda r: (abs(r.tokens - subset.target), r.first))
            tiers.update((run.id, position) for position, run in enumerate(siblings))
        selection = select_samples(runs, subset, seed, q1_min_ratio, tiers=tiers)
        result[subset.name] = selection
        chosen[subset.name] = {run.id for run in selection.samples}
    return {name: result[name] for name in candidate_sets}
