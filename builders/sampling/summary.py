"""Per-subset summary of a selection and its candidates, for the build report."""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from lengthwise.builders.sampling.candidates import CandidateSet
from lengthwise.builders.sampling.selection import Selection
from lengthwise.builders.sampling.stats import LengthDistribution, length_distribution, quantile
from lengthwise.json_records import JsonRecord


@dataclass(frozen=True)
class TokenFigures:
    """Lengths of the selected samples in tokens (None fields for an empty selection)."""

    min: int | None
    q1: float | None
    mean: float | None  # to 0.1
    median: float | None
    max: int | None

    @classmethod
    def of(cls, lengths: Sequence[int]) -> TokenFigures:
        ordered = sorted(lengths)
        if not ordered:
            return cls(None, None, None, None, None)
        mean = round(statistics.fmean(ordered), 1)
        return cls(ordered[0], quantile(ordered, 0.25), mean, quantile(ordered, 0.5), ordered[-1])


@dataclass(frozen=True)
class SubsetSummary(JsonRecord):
    """What a builder checks per subset: size, balance, lengths, and what was missing.

    Laid out as the build report holds it (`subsets.<name>.selection`); shares are rounded
    to 4 places, the Q1 threshold to 0.1. Quantiles are linear/inclusive (see ``stats``).
    ``candidate_lengths`` shows the policy's candidate distribution with a histogram over
    [lower, upper], so policies can be compared.
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
    tokens: TokenFigures
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
    lengths = [run.tokens for run in selection.samples]
    per_book = Counter(run.book_id for run in selection.samples)
    largest = min(per_book.items(), key=lambda item: (-item[1], item[0]), default=None)
    tokens = TokenFigures.of(lengths)
    return SubsetSummary(
        subset=subset.name,
        target=subset.target,
        lower=subset.lower,
        upper=subset.upper,
        requested=subset.count,
        count=len(lengths),
        books=len(per_book),
        largest_book=largest[0] if largest else None,
        largest_book_share=round(largest[1] / len(lengths), 4) if largest else 0.0,
        tokens=tokens,
        q1_threshold=round(selection.q1_threshold, 1),
        q1_met=None if tokens.q1 is None else tokens.q1 >= selection.q1_threshold,
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
