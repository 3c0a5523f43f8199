"""Trace pieces of text (summary sentences, facts) to the context passage they come from.

A passage's similarity to a query is that of its closest sentence: a whole passage as one
bag of words favours passages that share scattered words with the query over the one
that holds the query's sentence (seen on the synthetic demo corpus, whose sentences
recombine a few names and places). Passages split into sentences with
`lengthwise.text.segment.sentences`; a passage without a sentence end is one unit.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from lengthwise.evaluation.analyses.positions import Passage, passages
from lengthwise.evaluation.analyses.similarity import Method, similarity_matrix
from lengthwise.text.segment import sentences


@functools.lru_cache(maxsize=16)
def passage_units(
    context: str, language: str
) -> tuple[tuple[Passage, ...], tuple[int, ...], tuple[str, ...]]:
    """(passages, passage index of each unit, unit texts): the units are the sentences."""
    found = tuple(passages(context, language))
    owners: list[int] = []
    units: list[str] = []
    for number, passage in enumerate(found):
        pieces = sentences(passage.text, "zh" if language == "zh" else "en") or [passage.text]
        owners += [number] * len(pieces)
        units += pieces
    return found, tuple(owners), tuple(units)


def trace(
    queries: Sequence[str], context: str, language: str, method: Method
) -> list[tuple[Passage, float] | None]:
    """For each query, its most similar passage and the similarity (None: nothing similar)."""
    found, owners, units = passage_units(context, language)
    if not queries or not units:
        return [None for _ in queries]
    matrix = similarity_matrix(queries, units, method, language)
    traced: list[tuple[Passage, float] | None] = []
    for row in matrix:
        best = max(range(len(row)), key=row.__getitem__)
        traced.append((found[owners[best]], row[best]) if row[best] > 0 else None)
    return traced
