"""Novel n-gram shares: how much of a summary is not copied from its source.

For n = 1..4, the share of the summary's n-grams (counted per position, so a
repeated phrase counts each time it is repeated) that occur nowhere in the source.
1.0 means fully abstractive at that n, 0.0 fully extractive. A summary shorter than
n tokens has no n-grams: its share is None. Tokens are `lengthwise.text.words`.

Implementation: for each summary position the longest source match starting there
(capped at max_n) comes from the source's `TokenIndex`; the n-gram starting at i is
novel exactly when that length is below n. No source n-gram sets are built.
"""

from __future__ import annotations

from collections.abc import Sequence

from lengthwise.releases.stats.token_index import TokenIndex
from lengthwise.text import words


def longest_matches(summary: Sequence[str], index: TokenIndex, cap: int) -> list[int]:
    """For each summary position, the longest source match starting there (at most `cap`)."""
    query = index.encode(summary)
    out: list[int] = []
    for i, token_id in enumerate(query):
        if token_id < 0:
            out.append(0)
            continue
        _, lengths = index.match_lengths(query, i, cap=cap)
        out.append(int(lengths.max()))
    return out


def novel_ngram_shares_tokens(
    summary: Sequence[str], source: Sequence[str] | TokenIndex, max_n: int = 4
) -> dict[int, float | None]:
    """{n: share of summary n-grams absent from the source} for n = 1..max_n."""
    if max_n < 1:
        raise ValueError(f"max_n must be at least 1, got {max_n}")
    index = source if isinstance(source, TokenIndex) else TokenIndex(source)
    matches = longest_matches(summary, index, max_n)
    shares: dict[int, float | None] = {}
    for n in range(1, max_n + 1):
        total = len(summary) - n + 1
        if total <= 0:
            shares[n] = None
            continue
        novel = sum(1 for i in range(total) if matches[i] < n)
        shares[n] = novel / total
    return shares


def novel_ngram_shares(
    source: str, summary: str, lang: str, max_n: int = 4
) -> dict[int, float | None]:
    """{n: share of the summary's n-grams that never occur in the source}, n = 1..max_n."""
    return novel_ngram_shares_tokens(words(summary, lang), words(source, lang), max_n)
