"""Uniformity on small hand-checked sources (bins = 10)."""

from __future__ import annotations

import math

import pytest

from lengthwise.releases.stats import DocumentFrequencies, uniformity

TEN_WORDS = "a0 b1 c2 d3 e4 f5 g6 h7 i8 j9"  # word k sits in bin k


def test_two_salient_words_in_two_bins() -> None:
    # Without a corpus table the source is cut into 10 one-word blocks: b1 and e4 each
    # have df 1 (idf ln(11/2) > 0). Positions 1 and 4 -> two bins with one each:
    # H = ln 2, uniformity = ln 2 / ln 10 = 0.30103
    assert uniformity(TEN_WORDS, "b1 b1 e4", "en") == pytest.approx(math.log(2) / math.log(10))


def test_five_bins_and_every_occurrence_counts() -> None:
    # x occurs at 0, 2, 4, 6, 8 (bins 0, 2, 4, 6, 8): H = ln 5 -> ln 5 / ln 10 = 0.69897.
    # (Counting only the first occurrence would give 0.)
    assert uniformity("x y x y x y x y x y", "x", "en") == pytest.approx(math.log(5) / math.log(10))


def test_all_bins_even_is_one_and_one_bin_is_zero() -> None:
    assert uniformity(TEN_WORDS, TEN_WORDS, "en") == pytest.approx(1.0)
    assert uniformity(TEN_WORDS, "c2 c2 c2", "en") == 0.0
    assert uniformity(TEN_WORDS, "nothing here matches", "en") == 0.0


def test_words_found_in_every_block_are_not_salient() -> None:
    # 20 words "the w1 the w2 ... the w10": 10 blocks of two words, "the" in all of them
    # -> idf ln(11/11) = 0, never salient. Only w3 (position 5, bin 2) is: uniformity 0.
    source = " ".join(f"the w{k}" for k in range(1, 11))
    assert uniformity(source, "the the the w3", "en") == 0.0


def test_top_k_limits_the_salient_words() -> None:
    # top_k=1 keeps b1 (tf 2) only: one position, one bin -> 0.
    assert uniformity(TEN_WORDS, "b1 b1 e4", "en", top_k=1) == 0.0


def test_corpus_table_decides_salience() -> None:
    # With a corpus where b1 is in every document, only e4 is salient -> one bin -> 0.
    table = DocumentFrequencies(documents=5, counts={"b1": 5, "e4": 1})
    assert uniformity(TEN_WORDS, "b1 b1 e4", "en", corpus_df=table) == 0.0


def test_chinese_uniformity_by_hand() -> None:
    # jieba: 春天/夏天/秋天/冬天/早上/中午/晚上/今天/明天/昨天 (word k in bin k);
    # summary 夏天/和/冬天: 和 is not in the source; 夏天 (bin 1) and 冬天 (bin 3)
    # -> ln 2 / ln 10
    source = "春天，夏天，秋天，冬天，早上，中午，晚上，今天，明天，昨天"
    assert uniformity(source, "夏天和冬天", "zh") == pytest.approx(math.log(2) / math.log(10))


def test_result_is_in_unit_interval_on_longer_text() -> None:
    source = " ".join(f"w{k % 37} filler{k % 5}" for k in range(2000))
    value = uniformity(source, "w1 w2 w3 w4 w5 w6 filler1", "en")
    assert 0.0 <= value <= 1.0
