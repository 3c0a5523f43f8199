"""Subset summaries, length statistics and CNNSum-style length tables, checked by hand."""

from __future__ import annotations

import itertools
import json
import statistics

from hypothesis import given, settings
from hypothesis import strategies as st

from lengthwise.builders.sampling import (
    BookLengths,
    ChapterRun,
    candidates_for_subset,
    length_table,
    length_table_markdown,
    quantile,
    select_samples,
    summarize_subset,
)
from lengthwise.builders.sampling.stats import histogram
from lengthwise.spec import SubsetSpec


def test_summary_of_a_small_selection_matches_hand_computed_values() -> None:
    subset = SubsetSpec(name="S", target=50, lower=10, upper=60, count=5)
    books = [
        BookLengths("a", [10, 20, 70]),  # 70 > upper: unusable
        BookLengths("b", [30]),
        BookLengths("c", [40]),
        BookLengths("d", [50, 60, 55]),
    ]
    candidates = candidates_for_subset(books, subset)
    selection = select_samples(candidates.runs, subset, seed=0, q1_min_ratio=0.1)
    for seed in range(1, 6):
        assert select_samples(candidates.runs, subset, seed, q1_min_ratio=0.1) == selection
    summary = summarize_subset(selection, candidates)
    # Books by candidate count: b, c (1), a (2), d (3). Round 1 takes b, c, a's closest (20)
    # and d's closest (50); round 2 starts with a (10). Whatever the seed.
    assert sorted(run.tokens for run in selection.samples) == [10, 20, 30, 40, 50]
    assert (summary.count, summary.books, summary.largest_book) == (5, 4, "a")
    assert summary.largest_book_share == 0.4
    tokens = summary.tokens
    assert (tokens.min, tokens.q1, tokens.mean, tokens.median, tokens.max) == (
        10,
        20.0,
        30.0,
        30.0,
        50,
    )
    assert summary.q1_met is True
    assert (summary.candidates, summary.candidate_books) == (7, 4)
    assert (summary.unusable_chapters, summary.unusable_tokens) == (1, 70)
    dist = summary.candidate_lengths
    assert (dist.min, dist.q1, dist.median, dist.q3, dist.max) == (10, 25.0, 40.0, 52.5, 60)
    # Ten bins of width 5 over [10, 60]: 10 -> bin 0, 20 -> 2, ..., 50 -> 8, 55 and 60 -> 9.
    assert [b["count"] for b in dist.histogram] == [1, 0, 1, 0, 1, 0, 1, 0, 1, 2]
    bins = dist.histogram
    assert (bins[0]["from"], bins[0]["to"], bins[-1]["to"]) == (10, 14, 60)
    report = json.loads(json.dumps(summary.to_json()))
    assert report["tokens"]["q1"] == 20.0 and report["candidate_lengths"]["n"] == 7


def test_summary_of_a_shortfall_reports_it() -> None:
    subset = SubsetSpec(name="S", target=50, lower=10, upper=60, count=5)
    candidates = candidates_for_subset([BookLengths("a", [55])], subset)
    summary = summarize_subset(select_samples(candidates.runs, subset, seed=0), candidates)
    assert summary.count == 1 and summary.largest_book_share == 1.0
    assert summary.shortfall is not None and "only 1" in summary.shortfall
    assert summary.to_json()["shortfall"] == summary.shortfall


@settings(deadline=None)  # timing varies on shared CI machines
@given(st.lists(st.integers(min_value=-1000, max_value=1000), min_size=2))
def test_quantile_agrees_with_statistics_inclusive(values: list[int]) -> None:
    ordered = sorted(values)
    q1, median, q3 = statistics.quantiles(ordered, n=4, method="inclusive")
    assert abs(quantile(ordered, 0.25) - q1) < 1e-6
    assert abs(quantile(ordered, 0.5) - median) < 1e-6
    assert abs(quantile(ordered, 0.75) - q3) < 1e-6


@settings(deadline=None)  # timing varies on shared CI machines
@given(
    st.lists(st.integers(min_value=0, max_value=300)),
    st.integers(min_value=0, max_value=150),
    st.integers(min_value=0, max_value=150),
    st.integers(min_value=1, max_value=12),
)
def test_histogram_bins_cover_the_interval_and_count_every_value(
    values: list[int], lower: int, width: int, bins: int
) -> None:
    upper = lower + width
    result, below, above = histogram(values, lower, upper, bins)
    assert len(result) == bins and result[0].low == lower and result[-1].high == upper
    assert all(b.high + 1 == nxt.low for b, nxt in itertools.pairwise(result))
    for value in values:
        holders = [b for b in result if b.low <= value <= b.high]
        assert len(holders) == (1 if lower <= value <= upper else 0)
    assert below == sum(v < lower for v in values) and above == sum(v > upper for v in values)
    for b in result:
        assert b.count == sum(b.low <= v <= b.high for v in values)


def test_length_table_by_hand() -> None:
    rows = length_table(
        {
            "L": {"qwen2.5": [400, 100, 300, 200], "chars": [150, 250]},
            "XL": {"qwen2.5": [], "chars": [1_000_001]},
        }
    )
    got = [(r.subset, r.tokenizer, r.n, r.min, r.q1, r.mean, r.max) for r in rows]
    assert got == [
        # Q1 of 100..400 at position 0.75: 100 + 0.75 * 100.
        ("L", "qwen2.5", 4, 100, 175.0, 250.0, 400),
        ("L", "chars", 2, 150, 175.0, 200.0, 250),
        ("XL", "qwen2.5", 0, None, None, None, None),
        ("XL", "chars", 1, 1_000_001, 1_000_001.0, 1_000_001.0, 1_000_001),
    ]
    markdown = length_table_markdown(rows)
    lines = markdown.splitlines()
    assert lines[0] == "| Subset | Tokenizer | N | Min | Q1 | Avg | Max |"
    assert "| L | `qwen2.5` | 4 | 100 | 175 | 250 | 400 |" in lines
    assert "| XL | `qwen2.5` | 0 | – | – | – | – |" in lines
    assert "| XL | `chars` | 1 | 1,000,001 | 1,000,001 | 1,000,001 | 1,000,001 |" in lines
    assert json.loads(json.dumps([r.to_json() for r in rows]))[0]["q1"] == 175.0


def test_length_table_rounds_half_up_and_escapes_pipes() -> None:
    rows = length_table({"a|b": {"t": [1, 2]}})
    assert "| a\\|b | `t` | 2 | 1 | 1 | 2 | 2 |" in length_table_markdown(rows)  # Q1 1.25, avg 1.5


def test_summary_rejects_a_mismatched_candidate_set() -> None:
    one = SubsetSpec(name="A", target=5, lower=1, upper=9, count=1)
    other = one.model_copy(update={"name": "B"})
    selection = select_samples([ChapterRun("x", 0, 0, 5)], one, seed=0)
    try:
        summarize_subset(selection, candidates_for_subset([BookLengths("x", [5])], other))
    except ValueError as exc:
        assert "'A'" in str(exc) and "'B'" in str(exc)
    else:
        raise AssertionError("mismatched subsets were accepted")
