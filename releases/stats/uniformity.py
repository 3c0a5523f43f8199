"""Uniformity: how evenly a summary's salient words are spread over its source.

Following Koh et al. (2022): take the summary's `top_k` (20) most salient words,
find them in the source, bin their positions into `bins` (10) equal parts of the
source, and return the entropy of that histogram divided by log(bins) — by log of
the number of bins, not of the occupied bins, so content concentrated in one part
scores low. 1.0: perfectly even; 0.0: everything in one bin.

Documented choices:
- Salience is TF-IDF: tf = count in the summary, idf = ln((N + 1) / (df + 1)) over a
  document-frequency table. With `corpus_df` (e.g. over all samples of a release) the
  documents are the corpus's; without it, the source itself is cut into
  max(10, ceil(len / 500)) equal blocks of words and those are the documents. A word
  found in every document gets idf 0 and is never salient (function words such as
  的/了/the drop out without a stop list). Only words that occur in the source are
  candidates (an abstractive word has no position); ties go to the word that comes
  first in the summary.
- Positions: every occurrence of a salient word counts (not only the first, which
  would pile up at the beginning of long sources); position = token index / source
  length, bin = floor(position * bins).
- No salient word found in the source (or an empty source): 0.0.
Tokens are `lengthwise.text.words`.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from lengthwise.releases.stats.token_index import TokenIndex
from lengthwise.text import words

DEFAULT_TOP_K = 20
DEFAULT_BINS = 10
BLOCK_WORDS = 500  # fallback document size when no corpus table is given


@dataclass(frozen=True)
class DocumentFrequencies:
    """How many of `documents` documents contain each word."""

    documents: int
    counts: Mapping[str, int] = field(default_factory=dict)

    @classmethod
    def from_token_lists(cls, documents: Iterable[Sequence[str]]) -> DocumentFrequencies:
        counts: Counter[str] = Counter()
        total = 0
        for tokens in documents:
            counts.update(set(tokens))
            total += 1
        return cls(total, dict(counts))

    @classmethod
    def from_texts(cls, texts: Iterable[str], lang: str) -> DocumentFrequencies:
        return cls.from_token_lists(words(text, lang) for text in texts)

    def idf(self, word: str) -> float:
        return math.log((self.documents + 1) / (self.counts.get(word, 0) + 1))


def source_blocks(tokens: Sequence[str], block_words: int = BLOCK_WORDS) -> list[Sequence[str]]:
    """The source cut into max(10, ceil(len / block_words)) near-equal blocks."""
    count = max(DEFAULT_BINS, math.ceil(len(tokens) / block_words))
    bounds = [len(tokens) * k // count for k in range(count + 1)]
    return [tokens[bounds[k] : bounds[k + 1]] for k in range(count)]


def salient_words(
    summary: Sequence[str],
    source_vocabulary: Iterable[str],
    df: DocumentFrequencies,
    top_k: int = DEFAULT_TOP_K,
) -> list[str]:
    """The `top_k` summary words with the highest positive TF-IDF that occur in the source."""
    present = set(source_vocabulary)
    tf = Counter(summary)
    first_seen = {w: i for i, w in reversed(list(enumerate(summary)))}
    scored = [(tf[w] * df.idf(w), w) for w in tf if w in present]
    ranked = sorted((s for s in scored if s[0] > 0), key=lambda s: (-s[0], first_seen[s[1]]))
    return [w for _, w in ranked[:top_k]]


def normalised_entropy(counts: Sequence[int], bins: int) -> float:
    """Entropy of a histogram divided by log(bins); 0.0 for an empty histogram."""
    total = sum(counts)
    if total == 0 or bins < 2:
        return 0.0
    entropy = -sum((c / total) * math.log(c / total) for c in counts if c)
    return min(1.0, max(0.0, entropy / math.log(bins)))


def uniformity_tokens(
    source: Sequence[str],
    summary: Sequence[str],
    *,
    corpus_df: DocumentFrequencies | None = None,
    top_k: int = DEFAULT_TOP_K,
    bins: int = DEFAULT_BINS,
    index: TokenIndex | None = None,
) -> float:
    """`uniformity` on token lists (`index`: the source's TokenIndex, to reuse one)."""
    if bins < 2:
        raise ValueError(f"bins must be at least 2, got {bins}")
    n = len(source)
    if n == 0:
        return 0.0
    index = index if index is not None else TokenIndex(source)
    if corpus_df is None:
        corpus_df = DocumentFrequencies.from_token_lists(source_blocks(source))
    chosen = salient_words(summary, index.vocabulary, corpus_df, top_k)
    if not chosen:
        return 0.0
    positions = np.concatenate([index.positions(w) for w in chosen])
    histogram = np.bincount(positions * bins // n, minlength=bins)
    return normalised_entropy(histogram.tolist(), bins)


def uniformity(
    source: str,
    summary: str,
    lang: str,
    *,
    corpus_df: DocumentFrequencies | None = None,
    top_k: int = DEFAULT_TOP_K,
    bins: int = DEFAULT_BINS,
) -> float:
    """Normalised entropy (in [0, 1]) of where the summary's salient words sit in the source."""
    source_words = words(source, lang)
    return uniformity_tokens(
        source_words, words(summary, lang), corpus_df=corpus_df, top_k=top_k, bins=bins
    )
