"""Extractive fragment coverage and density (Grusky et al., 2018, Newsroom).

A fragment is a shared token sequence found by Newsroom's greedy procedure
(newsroom/analyze/fragments.py, ``Fragments._match``): from the current summary
position, scan the source left to right; at each source position whose token
matches, extend the match as far as it goes, keep it if strictly longer than the best
so far, and resume scanning *after the end of that match* (positions inside it are
skipped). Take the best match (if any) as a fragment and move the summary position
past it; otherwise move one token on. Coverage = sum |f| / |S| and density =
sum |f|^2 / |S| over summary tokens S (0 for an empty summary, as Newsroom does).

`greedy_fragments_reference` is that procedure as written: len(S) * len(source)
steps, about 2 s for a 130k-token source. `greedy_fragments` returns the same
fragments without scanning: it looks up the occurrences of the summary token in a
`TokenIndex`, extends them all at once with numpy, and replays the scan's skipping
rule only where it can matter (a skip needs an earlier visited match of length >= 2
that overlaps a later occurrence). Tests check equality on random inputs; the
benchmark bench/bench_fragments.py on real novels.

Tokens are `lengthwise.text.words` (jieba words for Chinese; lowercased words for
English; punctuation is not a token, unlike Newsroom's spaCy tokens).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from lengthwise.releases.stats.token_index import IntArray, TokenIndex
from lengthwise.text import words


@dataclass(frozen=True)
class Fragment:
    summary_start: int
    source_start: int
    length: int


def greedy_fragments_reference(summary: Sequence[str], source: Sequence[str]) -> list[Fragment]:
    """Newsroom's greedy matching, step for step (slow; for tests and the benchmark)."""
    fragments: list[Fragment] = []
    a, b = summary, source
    a_start = 0
    while a_start < len(a):
        best: Fragment | None = None
        best_length = 0
        b_start = 0
        while b_start < len(b):
            if a[a_start] == b[b_start]:
                a_end, b_end = a_start, b_start
                while a_end < len(a) and b_end < len(b) and b[b_end] == a[a_end]:
                    a_end += 1
                    b_end += 1
                length = a_end - a_start
                if length > best_length:
                    best = Fragment(a_start, b_start, length)
                    best_length = length
                b_start = b_end
            else:
                b_start += 1
        if best is not None:
            fragments.append(best)
            a_start += best_length
        else:
            a_start += 1
    return fragments


def _first_best_visited(positions: IntArray, lengths: IntArray) -> tuple[int, int]:
    """The match the reference scan keeps among the occurrences `positions` (ascending).

    The scan visits the first occurrence, then the first occurrence at or after the end
    of each visited match. A visited match of length 1 never hides a later occurrence,
    so only visited matches of length >= 2 can; the kept match is the first visited one
    of greatest length.
    """
    long = np.flatnonzero(lengths >= 2)
    if long.size == 0:
        return int(positions[0]), 1
    starts, sizes = positions[long], lengths[long]
    if long.size == 1 or bool(np.all(starts[1:] >= starts[:-1] + sizes[:-1])):
        best = int(np.argmax(sizes))  # no overlaps: every one is visited; argmax is first
        return int(starts[best]), int(sizes[best])
    best_start, best_size, reach = -1, 0, 0
    for start, size in zip(starts.tolist(), sizes.tolist(), strict=True):
        if start < reach:
            continue  # inside an earlier visited match: the scan jumps over it
        if size > best_size:
            best_start, best_size = start, size
        reach = start + size
    return best_start, best_size


def greedy_fragments(summary: Sequence[str], source: Sequence[str] | TokenIndex) -> list[Fragment]:
    """The same fragments as `greedy_fragments_reference`, in O(|S| * occurrences) numpy work."""
    index = source if isinstance(source, TokenIndex) else TokenIndex(source)
    query = index.encode(summary)
    fragments: list[Fragment] = []
    i = 0
    while i < len(query):
        if query[i] < 0:
            i += 1
            continue
        positions, lengths = index.match_lengths(query, i)
        start, length = _first_best_visited(positions, lengths)
        fragments.append(Fragment(i, start, length))
        i += length
    return fragments


def coverage_density(fragments: Sequence[Fragment], summary_length: int) -> tuple[float, float]:
    """(coverage, density) of `fragments` over a summary of `summary_length` tokens."""
    if summary_length == 0:
        return 0.0, 0.0
    coverage = sum(f.length for f in fragments) / summary_length
    density = sum(f.length**2 for f in fragments) / summary_length
    return coverage, density


def fragment_coverage_density(source: str, summary: str, lang: str) -> tuple[float, float]:
    """Extractive fragment coverage (in [0, 1]) and density (>= 0) of `summary` in `source`."""
    summary_tokens = words(summary, lang)
    fragments = greedy_fragments(summary_tokens, words(source, lang))
    return coverage_density(fragments, len(summary_tokens))
