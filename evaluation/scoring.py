"""Statistics over per-sample scores: means, bootstrap intervals, prompt and length effects.

Scores here are on the x100 scale used in tables. Every random draw comes from a
numpy Generator seeded explicitly, so the same scores always give the same intervals.

IB/IE mean squared difference: CNNSum compares its two prompt types through the squared
gap between a model's IB and IE scores. We compute, per model, the mean over subsets of
``(mean_IB(subset) - mean_IE(subset))**2`` (x100 scale, so a 3-point gap in every subset
gives 9.0), and report each subset's squared gap beside it. This is our reading of
the paper's definition (its text was not available to check offline); the per-subset
figures let a reader recompute any other aggregation.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Final

import numpy as np

from lengthwise.evaluation.json_types import JsonObject

DEFAULT_SEED: Final = 0
DEFAULT_RESAMPLES: Final = 1000
DEFAULT_CONFIDENCE: Final = 0.95


def mean(values: Sequence[float]) -> float | None:
    return float(sum(values)) / len(values) if values else None


def bootstrap_ci(
    values: Sequence[float],
    *,
    confidence: float = DEFAULT_CONFIDENCE,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
) -> tuple[float, float] | None:
    """Percentile bootstrap interval of the mean; None without values.

    One value gives a zero-width interval at that value.
    """
    if not values:
        return None
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    data = np.asarray(values, dtype=float)
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, len(data), size=(resamples, len(data)))
    means = data[draws].mean(axis=1)
    alpha = (1 - confidence) / 2
    low, high = np.quantile(means, [alpha, 1 - alpha])
    return float(low), float(high)


def ib_ie_squared_differences(
    ib_means: Mapping[str, float | None], ie_means: Mapping[str, float | None]
) -> dict[str, float]:
    """subset -> (IB mean - IE mean)**2 for subsets where both have a mean."""
    return {
        subset: (ib - ie) ** 2
        for subset, ib in ib_means.items()
        if ib is not None and (ie := ie_means.get(subset)) is not None
    }


def ib_ie_msd(
    ib_means: Mapping[str, float | None], ie_means: Mapping[str, float | None]
) -> float | None:
    """Mean over subsets of the squared IB-IE gap (see the module docstring)."""
    squared = ib_ie_squared_differences(ib_means, ie_means)
    return mean(list(squared.values()))


@dataclass(frozen=True)
class PairedComparison:
    """B minus A on the samples both scored."""

    n: int
    mean_a: float
    mean_b: float
    mean_difference: float
    ci: tuple[float, float] | None
    wins: int  # samples where B scored higher
    losses: int
    ties: int
    sign_test_p: float  # exact two-sided sign test over non-tied pairs

    def to_dict(self) -> JsonObject:
        data: JsonObject = asdict(self)
        data["ci"] = list(self.ci) if self.ci else None
        return data


def sign_test_p(wins: int, losses: int) -> float:
    """Exact two-sided binomial sign test p-value (1.0 with no untied pairs)."""
    trials = wins + losses
    if trials == 0:
        return 1.0
    extreme = min(wins, losses)
    tail = sum(math.comb(trials, k) for k in range(extreme + 1)) / float(2**trials)
    return min(1.0, 2 * tail)


def paired_comparison(
    a: Mapping[str, float],
    b: Mapping[str, float],
    *,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
    tie_tolerance: float = 1e-9,
) -> PairedComparison | None:
    """Per-sample comparison of two score maps (sample id -> score); None if no overlap."""
    shared = sorted(set(a) & set(b))
    if not shared:
        return None
    differences = [b[key] - a[key] for key in shared]
    wins = sum(1 for d in differences if d > tie_tolerance)
    losses = sum(1 for d in differences if d < -tie_tolerance)
    return PairedComparison(
        n=len(shared),
        mean_a=float(np.mean([a[key] for key in shared])),
        mean_b=float(np.mean([b[key] for key in shared])),
        mean_difference=float(np.mean(differences)),
        ci=bootstrap_ci(differences, resamples=resamples, seed=seed),
        wins=wins,
        losses=losses,
        ties=len(shared) - wins - losses,
        sign_test_p=sign_test_p(wins, losses),
    )


def length_drop(subset_means: Sequence[tuple[str, float | None]]) -> JsonObject | None:
    """Drop from the shortest to the longest subset with a mean (input shortest first).

    ``drop`` = shortest - longest (positive when longer contexts score lower);
    ``relative_drop`` = drop / shortest (None when the shortest mean is 0).
    """
    scored = [(name, value) for name, value in subset_means if value is not None]
    if len(scored) < 2:
        return None
    (first, first_mean), (last, last_mean) = scored[0], scored[-1]
    drop = first_mean - last_mean
    return {
        "from": first,
        "to": last,
        "from_mean": first_mean,
        "to_mean": last_mean,
        "drop": drop,
        "relative_drop": drop / first_mean if first_mean else None,
    }
