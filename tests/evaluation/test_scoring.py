"""Statistics on hand-made numbers."""

from __future__ import annotations

import pytest

from lengthwise.evaluation.scoring import (
    bootstrap_ci,
    ib_ie_msd,
    ib_ie_squared_differences,
    length_drop,
    mean,
    paired_comparison,
    sign_test_p,
)


def test_mean() -> None:
    assert mean([10.0, 20.0, 30.0]) == 20.0
    assert mean([]) is None


def test_bootstrap_interval_is_reproducible_and_brackets_the_mean() -> None:
    values = [12.0, 15.5, 9.0, 30.0, 22.0, 18.5, 11.0, 25.0]
    first = bootstrap_ci(values, seed=3)
    assert first == bootstrap_ci(values, seed=3)
    assert first != bootstrap_ci(values, seed=4)
    assert first is not None
    low, high = first
    assert min(values) <= low < 17.875 < high <= max(values)
    narrow = bootstrap_ci(values, confidence=0.5, seed=3)
    assert narrow is not None and narrow[0] >= low and narrow[1] <= high


def test_bootstrap_of_constant_or_single_values_has_zero_width() -> None:
    assert bootstrap_ci([7.0, 7.0, 7.0]) == (7.0, 7.0)
    assert bootstrap_ci([4.0]) == (4.0, 4.0)
    assert bootstrap_ci([]) is None
    with pytest.raises(ValueError, match="confidence"):
        bootstrap_ci([1.0], confidence=1.5)


def test_ib_ie_mean_squared_difference() -> None:
    ib = {"L": 20.0, "XL": 18.0, "2XL": 15.0, "3XL": None}
    ie = {"L": 23.0, "XL": 17.0, "2XL": 15.0, "3XL": 10.0}
    assert ib_ie_squared_differences(ib, ie) == {"L": 9.0, "XL": 1.0, "2XL": 0.0}
    assert ib_ie_msd(ib, ie) == pytest.approx(10.0 / 3)
    assert ib_ie_msd({"L": None}, {"L": 1.0}) is None


def test_paired_comparison_counts_wins_losses_ties_on_shared_samples() -> None:
    a = {"s1": 10.0, "s2": 20.0, "s3": 30.0, "s4": 40.0, "only-a": 99.0}
    b = {"s1": 15.0, "s2": 20.0, "s3": 25.0, "s4": 50.0, "only-b": 0.0}
    result = paired_comparison(a, b)
    assert result is not None
    assert result.n == 4
    assert (result.wins, result.losses, result.ties) == (2, 1, 1)
    assert result.mean_a == 25.0 and result.mean_b == 27.5
    assert result.mean_difference == pytest.approx(2.5)
    assert result.ci is not None and result.ci[0] <= 2.5 <= result.ci[1]
    assert paired_comparison({"x": 1.0}, {"y": 1.0}) is None


def test_sign_test() -> None:
    assert sign_test_p(5, 0) == pytest.approx(2 / 32)
    assert sign_test_p(3, 3) == 1.0
    assert sign_test_p(0, 0) == 1.0
    assert sign_test_p(9, 1) == pytest.approx(2 * 11 / 1024)


def test_length_drop_from_shortest_to_longest_scored_subset() -> None:
    drop = length_drop([("L", 30.0), ("XL", 25.0), ("2XL", None), ("3XL", 21.0)])
    assert drop is not None
    assert (drop["from"], drop["to"]) == ("L", "3XL")
    assert drop["drop"] == pytest.approx(9.0)
    assert drop["relative_drop"] == pytest.approx(0.3)
    assert length_drop([("L", 30.0)]) is None
    zero = length_drop([("L", 0.0), ("XL", 1.0)])
    assert zero is not None and zero["relative_drop"] is None
