"""Per-subset summary of a selection and its candidates, for the build report."""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass

from typing_extensions import TypedDict

from lengthwise.builders.sampling.candidates import CandidateSet
from lengthwise.builders.sampling.selection import Selection
from lengthwise.builders.sampling.stats import (
    DistributionJson,
    LengthDistribution,
    length_distribution,
    quantile,
)


class TokenFigures(TypedDict):
    """Lengths of a subset's samples in tokens (None when it has none)."""

    min: int | None
    q1: float | None
    mean: float | None
    median: float | None
    max: int | None


class SelectionJson(TypedDict):
    """A `SubsetSummary` as the build report holds it (`subsets.<name>.selection`)."""

    subset: str
    target: int
    lower: int
    upper: int
    requested: int
    count: int
    books: int
    largest_book: str | None
    largest_book_share: float
    tokens: TokenFigures
    q1_threshold: float
    q1_met: bool | None
    book_cap: int | None
    shortfall: str | None
    notes: list[str]
    policy: str
    nested: bool
    candidates: int
    candidate_books: int
    candidate_lengths: DistributionJson
    unusable_chapters: int
    unusable_tokens: int


@dataclass(frozen=True)
class SubsetSummary:
    """What a builder checks per subset: size, balance, lengths, and what was missing.

    Length fields are None for an empty selection. Quantiles are linear/inclusive (see
    ``stats``). ``candidate_lengths`` shows the policy's candidate distribution with a
    histogram over [lower, upper], so policies can be compared.
    """

    subset: str
    target: int
    lower: int
    upper: int
    requested: int
    count: int
    books: int
    largest_book: str | None
    largest_book_share: float
    min: int | None
    q1: float | None
    mean: float | None
    median: float | None
    max: int | None
    q1_threshold: float
    q1_met: bool | None
    book_cap: int | None
    shortfall: str | None
    notes: tuple[str, ...]
    policy: str
    nested: bool
    candidates: int
    candidate_books: int
    candidate_lengths: LengthDistribution
    unusable_chapters: int
    unusable_tokens: int

    def to_dict(self) -> SelectionJson:
        return {
            "subset": self.subset,
            "target": self.target,
            "lower": self.lower,
            "upper": self.upper,
            "requested": self.requested,
            "count": self.count,
            "books": self.books,
            "largest_book": self.largest_book,
            "largest_book_share": round(self.largest_book_share, 4),
            "tokens": {
                "min": self.min,
                "q1": self.q1,
                "mean": None if self.mean is None else round(self.mean, 1),
                "median": self.median,
                "max": self.max,
            },
            "q1_threshold": round(self.q1_threshold, 1),
            "q1_met": self.q1_met,
            "book_cap": self.book_cap,
            "shortfall": self.shortfall,
            "notes": list(self.notes),
            "policy": self.policy,
            "nested": self.nested,
            "candidates": self.candidates,
            "candidate_books": self.candidate_books,
            "candidate_lengths": self.candidate_lengths.to_dict(),
            "unusable_chapters": self.unusable_chapters,
            "unusable_tokens": self.unusable_tokens,
        }


def summarize_subset(
    selection: Selection, candidates: CandidateSet, bins: int = 10
) -> SubsetSummary:
    """Summary of ``selection`` drawn from ``candidates`` (the same subset).

    Lengths are the runs' ``tokens``; to report exact recounts, pass a selection whose runs
    carry them (``dataclasses.replace(run, tokens=...)``).
    """
    subset = selection.subset
    if candidates.subset.name != subset.name:
        raise ValueError(
            f"selection is for subset {subset.name!r} but candidates for {candidates.subset.name!r}"
        )
    lengths = sorted(run.tokens for run in selection.samples)
    per_book = Counter(run.book_id for run in selection.samples)
    largest = min(per_book.items(), key=lambda item: (-item[1], item[0]), default=None)
    q1 = quantile(lengths, 0.25) if lengths else None
    return SubsetSummary(
        subset=subset.name,
        target=subset.target,
        lower=subset.lower,
        upper=subset.upper,
        requested=subset.count,
        count=len(lengths),
        books=len(per_book),
        largest_book=largest[0] if largest else None,
        largest_book_share=largest[1] / len(lengths) if largest else 0.0,
        min=lengths[0] if lengths else None,
        q1=q1,
        mean=statistics.fmean(lengths) if lengths else None,
        median=quantile(lengths, 0.5) if lengths else None,
        max=lengths[-1] if lengths else None,
        q1_threshold=selection.q1_threshold,
        q1_met=None if q1 is None else q1 >= selection.q1_threshold,
        book_cap=selection.book_cap,
        shortfall=selection.shortfall,
        notes=selection.notes,
        policy=candidates.policy,
        nested=candidates.nested,
        candidates=len(candidates.runs),
        candidate_books=candidates.books_with_candidates,
        candidate_lengths=length_distribution(
            [run.tokens for run in candidates.runs], subset.lower, subset.upper, bins
        ),
        unusable_chapters=candidates.unusable_chapters,
        unusable_tokens=candidates.unusable_tokens,
    )
