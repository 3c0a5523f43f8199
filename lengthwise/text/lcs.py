"""Length of the longest common subsequence of two token sequences, bit-parallel.

The textbook dynamic programme costs len(a) * len(b) Python steps (0.1-0.3 s for two
600-word summaries here). Hyyrö's bit-vector recurrence keeps one row of that table
as the bits of a Python integer and updates it with a few big-integer operations per
token of `b`, so the same pair takes about a millisecond, in O(len(a)) memory.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence


def lcs_length(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    """Length of the longest common subsequence of `a` and `b` (equal items match)."""
    if len(a) < len(b):
        a, b = b, a  # the bit vector runs over the longer sequence: fewer iterations
    if not b:
        return 0
    # match[token] has bit i set where a[i] == token.
    match: dict[Hashable, int] = {}
    for i, token in enumerate(a):
        match[token] = match.get(token, 0) | (1 << i)
    full = (1 << len(a)) - 1
    row = full  # bit i is 0 where the LCS row value steps up at column i
    for token in b:
        hits = row & match.get(token, 0)
        row = ((row + hits) | (row - hits)) & full
    return len(a) - row.bit_count()


def lcs_length_reference(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    """The textbook O(len(a) * len(b)) programme with one row of memory (for tests)."""
    previous = [0] * (len(b) + 1)
    for x in a:
        current = [0]
        for j, y in enumerate(b, start=1):
            current.append(previous[j - 1] + 1 if x == y else max(previous[j], current[j - 1]))
        previous = current
    return previous[-1]
