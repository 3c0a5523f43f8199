"""Compression ratios, novel n-gram shares and redundancy on hand-checked examples."""

from __future__ import annotations

import pytest

from lengthwise.releases.stats import (
    compression_ratio,
    novel_ngram_shares,
    redundancy,
    sentence_compression_ratio,
)


def test_english_compression_by_hand() -> None:
    # source words: the cat sat on the mat the dog sat on the log (12), 2 sentences
    # summary words: a cat and a dog sat (6), 1 sentence -> 12/6 = 2.0 and 2/1 = 2.0
    source = "The cat sat on the mat. The dog sat on the log."
    summary = "A cat and a dog sat."
    assert compression_ratio(source, summary, "en") == 2.0
    assert sentence_compression_ratio(source, summary, "en") == 2.0


def test_chinese_compression_by_hand() -> None:
    # jieba: 林黛玉/进/了/贾府/贾宝玉/见/了/林黛玉 (8 words, 2 sentences)
    # summary 贾宝玉/见/了/林黛玉/很/高兴 (6 words, 1 sentence): 8/6 and 2/1
    source = "林黛玉进了贾府。贾宝玉见了林黛玉。"
    summary = "贾宝玉见了林黛玉，很高兴。"
    assert compression_ratio(source, summary, "zh") == pytest.approx(8 / 6)
    assert sentence_compression_ratio(source, summary, "zh") == 2.0


def test_compression_of_an_empty_summary_is_an_error_not_a_number() -> None:
    with pytest.raises(ValueError, match="no words"):
        compression_ratio("some text", "  ，。", "zh")


def test_novel_ngram_shares_by_hand() -> None:
    # summary: the quick brown dog sleeps; source: the quick brown fox ... lazy dog
    # 1-grams: sleeps novel -> 1/5; 2-grams: brown-dog, dog-sleeps novel -> 2/4;
    # 3-grams: quick-brown-dog, brown-dog-sleeps novel (the-quick-brown copied) -> 2/3;
    # 4-grams: both novel -> 2/2
    shares = novel_ngram_shares(
        "The quick brown fox jumps over the lazy dog.", "The quick brown dog sleeps.", "en"
    )
    assert shares == pytest.approx({1: 1 / 5, 2: 2 / 4, 3: 2 / 3, 4: 1.0})
    assert novel_ngram_shares("a b c", "a b", "en")[3] is None  # no 3-grams in the summary


def test_chinese_novel_ngrams_by_hand() -> None:
    # summary 贾宝玉/见/了/林黛玉/很/高兴 against 林黛玉/进/了/贾府/贾宝玉/见/了/林黛玉:
    # novel 1-grams 很, 高兴 -> 2/6; 2-grams 林黛玉-很, 很-高兴 -> 2/5
    shares = novel_ngram_shares(
        "林黛玉进了贾府。贾宝玉见了林黛玉。", "贾宝玉见了林黛玉，很高兴。", "zh"
    )
    assert shares[1] == pytest.approx(2 / 6)
    assert shares[2] == pytest.approx(2 / 5)


def test_redundancy_by_hand() -> None:
    # sentences: [the cat sat] [the cat sat] [dogs run]; pair F1s: 1, 0, 0 -> mean 1/3
    assert redundancy("The cat sat. The cat sat. Dogs run.", "en") == pytest.approx(1 / 3)
    # two identical sentences 猫/追狗 -> one pair with F1 1.0
    assert redundancy("猫追狗。猫追狗。", "zh") == pytest.approx(1.0)
    assert redundancy("只有一句话。", "zh") == 0.0  # fewer than two sentences: documented 0
