"""Length statistics shared by summaries and tables.

Quantiles use linear interpolation between order statistics over the data as a whole
population: position ``q * (n - 1)`` in the sorted values. This is numpy's default
("linear") and ``statistics.quantiles(..., method="inclusive")``; min is Q0, max is Q4.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from typing_extensions import TypedDict

from lengthwise.json_records import JsonRecord


def quantile(sorted_values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0 <= q <= 1) of already sorted, non-empty values."""
    if not sorted_values:
        raise ValueError("quantile of no values")
    if not 0.0 <= q <= 1.0:
        raise ValueError(f"quantile must be within [0, 1], got {q}")
    position = q * (len(sorted_values) - 1)
    below = math.floor(position)
    above = min(below + 1, len(sorted_values) - 1)
    fraction = position - below
    return sorted_values[below] + (sorted_values[above] - sorted_values[below]) * fraction


@dataclass(frozen=True)
class HistogramBin:
    low: int  # inclusive
    high: int  # inclusive
    count: int


def histogram(
    values: Sequence[int], lower: int, upper: int, bins: int = 10
) -> tuple[list[HistogramBin], int, int]:
    """Counts of integer values in ``bins`` equal-width bins over [lower, upper].

    Bin i holds the integers from ``lower + ceil(i * width / bins)`` up to the next bin's
    start minus one (the last bin ends at ``upper``). Returns the bins and how many values
    fell below ``lower`` and above ``upper``.
    """
    if bins < 1:
        raise ValueError(f"bins must be at least 1, got {bins}")
    if lower > upper:
        raise ValueError(f"histogram bounds must satisfy lower <= upper, got [{lower}, {upper}]")
    width = upper - lower
    starts = [lower + (i * width + bins - 1) // bins for i in range(bins)]
    counts = [0] * bins
    below = above = 0
    for value in values:
        if value < lower:
            below += 1
        elif value > upper:
            above += 1
        else:
            # The same ceil edges as `starts`, inverted: floor((v - lower) * bins / width).
            index = (value - lower) * bins // width if width else bins - 1
            counts[min(index, bins - 1)] += 1
    ends = [start - 1 for start in starts[1:]] + [upper]
    bins_out = [HistogramBin(s, e, c) for s, e, c in zip(starts, ends, counts, strict=True)]
    return bins_out, below, above


# A histogram bin as reports show it: values from..to (inclusive) and how many.
BinJson = TypedDict("BinJson", {"from": int, "to": int, "count": int})


@dataclass(frozen=True)
class LengthDistribution(JsonRecord):
    """Five-number summary, mean (to 0.1) and histogram of token lengths (None fields when
    empty); the build report holds `to_json()`."""

    n: int
    min: int | None
    q1: float | None
    median: float | None
    q3: float | None
    max: int | None
    mean: float | None
    histogram: list[BinJson]
    below_lower: int  # values below the histogram's range
    above_upper: int


def length_distribution(
    values: Sequence[int], lower: int, upper: int, bins: int = 10
) -> LengthDistribution:
    """Distribution of ``values`` with a histogram over [lower, upper]."""
    bins_, below, above = histogram(values, lower, upper, bins)
    shown: list[BinJson] = [{"from": b.low, "to": b.high, "count": b.count} for b in bins_]
    if not values:
        return LengthDistribution(0, None, None, None, None, None, None, shown, 0, 0)
    ordered = sorted(values)
    return LengthDistribution(
        n=len(ordered),
        min=ordered[0],
        q1=quantile(ordered, 0.25),
        median=quantile(ordered, 0.5),
        q3=quantile(ordered, 0.75),
        max=ordered[-1],
        mean=round(statistics.fmean(ordered), 1),
        histogram=shown,
        below_lower=below,
        above_upper=above,
    )
