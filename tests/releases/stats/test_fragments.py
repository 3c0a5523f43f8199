"""Extractive fragments: hand-checked coverage/density and the fast algorithm's equality."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lengthwise.releases.stats import (
    fragment_coverage_density,
    greedy_fragments,
    greedy_fragments_reference,
)
from lengthwise.releases.stats.fragments import Fragment


def test_english_coverage_and_density_by_hand() -> None:
    # summary: the quick brown dog sleeps (5 words)
    # source:  the quick brown fox jumps over the lazy dog
    # "the" occurs at 0 (match "the quick brown", 3) and 6 (1): fragment of 3;
    # "dog" at 8: fragment of 1; "sleeps" is novel.
    # coverage = (3 + 1) / 5 = 0.8; density = (9 + 1) / 5 = 2.0
    source = "The quick brown fox jumps over the lazy dog."
    summary = "The quick brown dog sleeps."
    assert fragment_coverage_density(source, summary, "en") == pytest.approx((0.8, 2.0))


def test_chinese_coverage_and_density_by_hand() -> None:
    # jieba: source 林黛玉/进/了/贾府/贾宝玉/见/了/林黛玉 ; summary 贾宝玉/见/了/林黛玉/很/高兴 (6)
    # "贾宝玉 见 了 林黛玉" is copied (4); 很, 高兴 are novel.
    # coverage = 4 / 6; density = 16 / 6
    source = "林黛玉进了贾府。贾宝玉见了林黛玉。"
    summary = "贾宝玉见了林黛玉，很高兴。"
    coverage, density = fragment_coverage_density(source, summary, "zh")
    assert coverage == pytest.approx(4 / 6)
    assert density == pytest.approx(16 / 6)


def test_empty_summary_scores_zero_as_newsroom_does() -> None:
    assert fragment_coverage_density("some source text", "", "en") == (0.0, 0.0)


def test_the_scan_skips_inside_a_match_exactly_like_newsroom() -> None:
    # At summary position 0 the scan matches source[0:2] ("x x", then y != x), resumes at
    # source[2] ("x y": 1) and never tries source[1], where "x x y" (3) would start.
    summary, source = ["x", "x", "y"], ["x", "x", "x", "y"]
    expected = [Fragment(0, 0, 2), Fragment(2, 3, 1)]
    assert greedy_fragments_reference(summary, source) == expected
    assert greedy_fragments(summary, source) == expected


small_alphabet = st.lists(st.sampled_from("abcd"), max_size=25)


@settings(max_examples=400, deadline=None)
@given(small_alphabet, st.lists(st.sampled_from("abcde"), max_size=60))
def test_fast_fragments_equal_the_reference_algorithm(
    summary: list[str], source: list[str]
) -> None:
    assert greedy_fragments(summary, source) == greedy_fragments_reference(summary, source)


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 6), st.lists(st.sampled_from("ab"), min_size=1, max_size=8), st.data())
def test_fast_fragments_equal_reference_on_repetitive_sources(
    repeats: int, unit: list[str], data: st.DataObject
) -> None:
    # Periodic sources make overlapping occurrences, the case where skipping matters.
    source = unit * repeats * 3
    summary = data.draw(st.lists(st.sampled_from("ab"), max_size=30))
    assert greedy_fragments(summary, source) == greedy_fragments_reference(summary, source)
