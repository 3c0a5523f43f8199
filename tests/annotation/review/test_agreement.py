"""Agreement: mean pairwise ROUGE-L F1 between annotators' summaries."""

from __future__ import annotations

import pytest

from lengthwise.annotation.review.agreement import mean_pairwise, mean_with_others, pairwise_matrix


def test_identical_summaries_agree_fully_and_unrelated_ones_not_at_all() -> None:
    matrix = pairwise_matrix(
        ["Ada found the key.", "Ada found the key.", "Storms came north."], "en"
    )
    assert matrix[0][1] == pytest.approx(1.0)
    assert matrix[0][2] == 0.0 and matrix[2][1] == 0.0
    assert matrix == [list(row) for row in zip(*matrix, strict=True)]  # symmetric


def test_rouge_l_is_the_lcs_f1_over_words() -> None:
    # LCS of "a b c d" and "a c d e" is "a c d": precision = recall = 3/4.
    matrix = pairwise_matrix(["a b c d", "a c d e"], "en")
    assert matrix[0][1] == pytest.approx(0.75)


def test_chinese_is_compared_word_by_word() -> None:
    matrix = pairwise_matrix(["林清找到了钥匙", "林清丢失了钥匙"], "zh")
    assert 0.5 < matrix[0][1] < 1.0


def test_means_over_pairs_and_against_the_others() -> None:
    matrix = [[1.0, 0.8, 0.2], [0.8, 1.0, 0.4], [0.2, 0.4, 1.0]]
    assert mean_pairwise(matrix) == pytest.approx((0.8 + 0.2 + 0.4) / 3)
    assert mean_with_others(matrix, 0) == pytest.approx(0.5)
    assert mean_with_others(matrix, 2) == pytest.approx(0.3)
    assert mean_pairwise([[1.0]]) is None and mean_with_others([[1.0]], 0) is None
