"""Redundancy of a summary: mean ROUGE-L F1 between all pairs of its sentences.

Pairs are unordered (i < j; ROUGE-L F1 is symmetric), scored with the plain LCS
ROUGE-L of `lengthwise.text.rouge_l_f1` on its tokens (jieba words for Chinese,
rouge-score tokens for English). A summary with fewer than two sentences has no pairs
and gets 0.0 (nothing is repeated), following Koh et al.'s definition.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from lengthwise.text import rouge_l_tokens, rouge_tokens, sentences


def redundancy_of_sentences(sentence_tokens: Sequence[Sequence[str]]) -> float:
    """Mean pairwise ROUGE-L F1 of tokenized sentences (0.0 with fewer than two)."""
    pairs = list(combinations(sentence_tokens, 2))
    if not pairs:
        return 0.0
    return sum(rouge_l_tokens(a, b).f1 for a, b in pairs) / len(pairs)


def redundancy(summary: str, lang: str) -> float:
    """Mean ROUGE-L F1 over all pairs of the summary's sentences, in [0, 1]."""
    return redundancy_of_sentences([rouge_tokens(s, lang) for s in sentences(summary, lang)])
