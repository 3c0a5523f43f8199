"""A source's tokens as integer ids, with every id's positions, for fast matching.

Extractive fragments, novel n-grams and uniformity all ask "where in the source does
this summary token (sequence) occur?". Scanning a 128k-token source once per summary
token is what makes the straightforward algorithms slow (len(summary) * len(source)
steps in Python); this index answers with the sorted positions of a token, and
`match_lengths` extends all its occurrences at once with numpy.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.int64]
_EMPTY: IntArray = np.zeros(0, dtype=np.int64)


class TokenIndex:
    """Positions of every token of a source sequence."""

    def __init__(self, tokens: Sequence[str]) -> None:
        # Ids in order of first occurrence.
        self.vocabulary: dict[str, int] = {t: i for i, t in enumerate(dict.fromkeys(tokens))}
        ids = list(map(self.vocabulary.__getitem__, tokens))
        self.id_list = ids  # plain ints: faster than numpy for one-at-a-time comparisons
        self.ids: IntArray = np.asarray(ids, dtype=np.int64)
        # Positions grouped by id, ascending within each group (stable sort).
        self._by_id: IntArray = np.argsort(self.ids, kind="stable").astype(np.int64)
        counts = np.bincount(self.ids, minlength=len(self.vocabulary))
        self._starts: IntArray = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)

    def __len__(self) -> int:
        return len(self.id_list)

    def encode(self, tokens: Sequence[str]) -> list[int]:
        """Ids of `tokens` in this source's vocabulary; -1 for tokens absent from the source."""
        get = self.vocabulary.get
        return [get(t, -1) for t in tokens]

    def positions_of_id(self, token_id: int) -> IntArray:
        """Ascending source positions of `token_id` (empty for -1)."""
        if token_id < 0:
            return _EMPTY
        return self._by_id[self._starts[token_id] : self._starts[token_id + 1]]

    def positions(self, token: str) -> IntArray:
        return self.positions_of_id(self.vocabulary.get(token, -1))

    def match_lengths(
        self, query: Sequence[int], start: int, cap: int | None = None
    ) -> tuple[IntArray, IntArray]:
        """For each occurrence p of query[start] in the source (ascending): the length of
        the common prefix of query[start:] and source[p:], capped at `cap` when given.
        """
        positions = self.positions_of_id(query[start])
        lengths = np.ones(positions.size, dtype=np.int64)
        limit = len(query) - start if cap is None else min(cap, len(query) - start)
        alive = np.arange(positions.size)
        n = len(self.id_list)
        k = 1
        while alive.size > 1 and k < limit:
            following = positions[alive] + k
            alive = alive[following < n]
            following = following[following < n]
            alive = alive[self.ids[following] == query[start + k]]
            lengths[alive] += 1
            k += 1
        if alive.size == 1 and k < limit:
            # One candidate left: extend it with plain integer comparisons.
            p = int(positions[alive[0]])
            source = self.id_list
            extra = 0
            while (
                k + extra < limit
                and p + k + extra < n
                and source[p + k + extra] == query[start + k + extra]
            ):
                extra += 1
            lengths[alive[0]] += extra
        return positions, lengths
