"""Agreement between annotators: mean pairwise ROUGE-L F1 between their summaries.

Label Studio's agreement matrix is an Enterprise feature; this is our own figure. It
uses `lengthwise.text`'s plain LCS ROUGE-L (jieba words for Chinese, rouge-score's
tokens for English): a consistency signal between humans, not CNNSum's evaluation
score (that is `lengthwise.text.rouge_l_cnnsum`).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from statistics import mean

from lengthwise.annotation.review.measure import text_language
from lengthwise.text import rouge_l_tokens, rouge_tokens


def pairwise_matrix(summaries: Sequence[str], language: str) -> list[list[float]]:
    """Symmetric matrix of ROUGE-L F1 between every two summaries (1.0 on the diagonal)."""
    lang = text_language(language)
    tokens = [rouge_tokens(s, lang) for s in summaries]
    size = len(tokens)
    matrix = [[1.0 if i == j else 0.0 for j in range(size)] for i in range(size)]
    for i, j in combinations(range(size), 2):
        matrix[i][j] = matrix[j][i] = rouge_l_tokens(tokens[i], tokens[j]).f1
    return matrix


def mean_pairwise(matrix: Sequence[Sequence[float]]) -> float | None:
    """Mean over distinct pairs; None with fewer than two summaries."""
    pairs = [matrix[i][j] for i, j in combinations(range(len(matrix)), 2)]
    return mean(pairs) if pairs else None


def mean_with_others(matrix: Sequence[Sequence[float]], index: int) -> float | None:
    """How close one summary is to the others (mean F1 against each of them)."""
    others = [matrix[index][j] for j in range(len(matrix)) if j != index]
    return mean(others) if others else None
