"""Candidate sets: every chapter run of every book that fits a subset's interval."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from itertools import accumulate
from typing import Any

from lengthwise.builders.sampling.runs import BookLengths, ChapterRun, run_id
from lengthwise.builders.sampling.windows import (
    NestedWindow,
    Policy,
    nested_windows,
    policy_windows,
    spanning,
)
from lengthwise.spec import SamplingConfig, SubsetSpec


@dataclass(frozen=True)
class CandidateSet:
    """The candidate runs of one subset plus what the books could not contribute.

    ``unusable_chapters``/``unusable_tokens``: chapters longer than ``upper`` on their own,
    which no sample of this subset can contain. ``refused_number_gaps``: windows the books
    would have given had runs been allowed across gaps in the printed chapter numbering
    (and restarts at one within a part: `number_gaps.numbering_breaks`).
    """

    subset: SubsetSpec
    policy: Policy
    nested: bool
    runs: tuple[ChapterRun, ...]
    books: int
    unusable_chapters: int
    unusable_tokens: int
    refused_number_gaps: int = 0

    def per_book(self) -> dict[str, int]:
        """Number of candidates per book id (books without candidates are absent)."""
        return dict(sorted(Counter(run.book_id for run in self.runs).items()))

    @property
    def books_with_candidates(self) -> int:
        return len({run.book_id for run in self.runs})

    def to_dict(self) -> dict[str, Any]:
        """Counts for reports (the runs themselves go to the samples files)."""
        return {
            "subset": self.subset.name,
            "policy": self.policy,
            "nested": self.nested,
            "candidates": len(self.runs),
            "books": self.books,
            "books_with_candidates": self.books_with_candidates,
            "unusable_chapters": self.unusable_chapters,
            "unusable_tokens": self.unusable_tokens,
            "refused_number_gaps": self.refused_number_gaps,
        }


def _check_books(books: Sequence[BookLengths]) -> None:
    seen: set[str] = set()
    for book in books:
        if book.book_id in seen:
            raise ValueError(f"book id {book.book_id!r} appears more than once")
        seen.add(book.book_id)


def _unusable(books: Sequence[BookLengths], upper: int) -> tuple[int, int]:
    long_chapters = [t for book in books for t in book.chapter_tokens if t > upper]
    return len(long_chapters), sum(long_chapters)


def _run(book_id: str, prefix: list[int], first: int, last: int) -> ChapterRun:
    return ChapterRun(book_id, first, last, prefix[last + 1] - prefix[first])


def candidates_for_subset(
    books: Sequence[BookLengths], subset: SubsetSpec, policy: Policy = "first-fit"
) -> CandidateSet:
    """All windows of ``subset`` in every book under ``policy``, in (book, chapter) order."""
    _check_books(books)
    runs: list[ChapterRun] = []
    refused = 0
    for book in books:
        prefix = [0, *accumulate(book.chapter_tokens)]
        for first, last in policy_windows(book.chapter_tokens, subset, policy, book.breaks):
            runs.append(_run(book.book_id, prefix, first, last))
        if book.breaks:
            unbroken = policy_windows(book.chapter_tokens, subset, policy)
            refused += spanning(unbroken, book.breaks)
    chapters, tokens = _unusable(books, subset.upper)
    return CandidateSet(subset, policy, False, tuple(runs), len(books), chapters, tokens, refused)


def _nested_run(book_id: str, prefix: list[int], window: NestedWindow) -> ChapterRun:
    run = _run(book_id, prefix, window.first, window.last)
    if window.parent is None:
        return run
    parent = window.parent
    return ChapterRun(
        run.book_id,
        run.first,
        run.last,
        run.tokens,
        parent_id=run_id(book_id, parent.first, parent.last),
        parent_subset=parent.subset,
    )


def nested_candidates(
    books: Sequence[BookLengths], subsets: Sequence[SubsetSpec], policy: Policy = "first-fit"
) -> dict[str, CandidateSet]:
    """Candidates of every subset with shorter windows cut inside longer ones.

    See ``nested_windows``; each run's ``parent_id``/``parent_subset`` names its enclosing run.
    """
    _check_books(books)
    per_subset: dict[str, list[ChapterRun]] = {s.name: [] for s in subsets}
    refused: dict[str, int] = {s.name: 0 for s in subsets}
    for book in books:
        prefix = [0, *accumulate(book.chapter_tokens)]
        found = nested_windows(book.chapter_tokens, subsets, policy, book.breaks)
        for name, windows in found.items():
            per_subset[name].extend(_nested_run(book.book_id, prefix, w) for w in windows)
        if book.breaks:
            unbroken = nested_windows(book.chapter_tokens, subsets, policy)
            for name, windows in unbroken.items():
                refused[name] += spanning([(w.first, w.last) for w in windows], book.breaks)
    result: dict[str, CandidateSet] = {}
    for subset in subsets:
        chapters, tokens = _unusable(books, subset.upper)
        runs = tuple(per_subset[subset.name])
        result[subset.name] = CandidateSet(
            subset, policy, True, runs, len(books), chapters, tokens, refused[subset.name]
        )
    return result


def build_candidates(
    books: Sequence[BookLengths], subsets: Sequence[SubsetSpec], sampling: SamplingConfig
) -> dict[str, CandidateSet]:
    """Candidate sets for every subset as the spec's ``[sampling]`` section asks."""
    if sampling.nested:
        return nested_candidates(books, subsets, sampling.policy)
    return {s.name: candidates_for_subset(books, s, sampling.policy) for s in subsets}


def recheck_near_bounds(
    candidates: CandidateSet,
    exact_tokens: Callable[[ChapterRun], int],
    margin_per_joint: int = 8,
) -> tuple[CandidateSet, list[ChapterRun]]:
    """Recount the runs whose summed length might fall outside the interval once joined.

    Joining chapters can change a count by a few tokens per joint, so only runs within
    ``margin_per_joint x (chapters - 1)`` tokens of ``lower`` or ``upper`` are at risk;
    ``exact_tokens(run)`` (e.g. tokenizing the joined text) is called for those alone.
    Returns the candidate set with recounted runs carrying their exact count and those now
    outside [lower, upper] removed, plus the removed runs (already recounted).
    """
    subset = candidates.subset
    kept: list[ChapterRun] = []
    dropped: list[ChapterRun] = []
    for run in candidates.runs:
        margin = margin_per_joint * (run.chapters - 1)
        if run.tokens - subset.lower >= margin and subset.upper - run.tokens >= margin:
            kept.append(run)
            continue
        exact = replace(run, tokens=exact_tokens(run))
        (kept if subset.lower <= exact.tokens <= subset.upper else dropped).append(exact)
    return replace(candidates, runs=tuple(kept)), dropped
