"""Where the printed chapter numbering jumps forward: chapters missing from the source.

A sample is a contiguous run of chapters *as printed*, so by default no window may contain
two chapters with missing numbers between them (a book jumping from chapter 1 to 12 must not
give a sample "chapters 1, 12, 13"). The rule, over consecutive *numbered* chapters p -> q:

- a gap is a forward jump, q > p + 1; the boundary lies just before the chapter numbered q;
- unnumbered chapters (prologue, epilogue, interlude) are skipped: they neither open nor
  close a gap;
- a backward step or a repeat (q <= p) is a restart (a new BOOK/PART/VOLUME, or an epilogue
  numbered from one) or a misprint, never a gap; so numbering restarting per part needs no
  special case, and ``Chapter.part`` only matters through it;
- a single misprinted number is no gap: in 25, 16, 27 (Tom Sawyer prints XVI for XXVI) the
  jump 16 -> 27 continues 25; in 5, 60, 7 the jump 5 -> 60 is followed by 7.

A restart is no gap, but a numbering that starts again at one *within the same part*
(no BOOK/PART heading explains it) is where a second work begins in an omnibus file
(chapter detection warns about it): no window may contain both sides of it either.
`numbering_breaks` gives both kinds of boundary.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from lengthwise.builders.chapters.sequence import RESTART_RUN
from lengthwise.records import Chapter


@dataclass(frozen=True)
class NumberGap:
    """Chapters ``before + 1 .. after - 1`` are missing before chapter position ``index``."""

    index: int
    before: int
    after: int

    @property
    def missing(self) -> int:
        return self.after - self.before - 1


def number_gaps(chapters: Sequence[Chapter]) -> list[NumberGap]:
    """The forward jumps of a book's printed numbering (see the module doc)."""
    numbered = [(i, c.number) for i, c in enumerate(chapters) if c.number is not None]
    gaps: list[NumberGap] = []
    for k in range(1, len(numbered)):
        p, (index, q) = numbered[k - 1][1], numbered[k]
        if q <= p + 1:
            continue
        earlier = numbered[k - 2][1] if k >= 2 else None
        later = numbered[k + 1][1] if k + 1 < len(numbered) else None
        if earlier is not None and q == earlier + 2:
            continue  # p was a misprint between earlier and q
        if later is not None and later == p + 2:
            continue  # q is a misprint between p and later
        gaps.append(NumberGap(index, p, q))
    return gaps


def missing_numbers(chapters: Sequence[Chapter]) -> int:
    """How many printed numbers the gaps leave out."""
    return sum(gap.missing for gap in number_gaps(chapters))


def numbering_restarts(chapters: Sequence[Chapter]) -> list[int]:
    """Positions of chapters numbered 1 that follow a chapter of the same part numbered
    `RESTART_RUN` (3) or more, as chapter detection splits numbering runs (see the module
    doc)."""
    numbered = [(i, c) for i, c in enumerate(chapters) if c.number is not None]
    return [
        index
        for (_, previous), (index, chapter) in itertools.pairwise(numbered)
        if chapter.number == 1
        and (previous.number or 0) >= RESTART_RUN
        and chapter.part == previous.part
    ]


def numbering_breaks(chapters: Sequence[Chapter]) -> tuple[int, ...]:
    """Chapter positions no sample may reach across: numbering gaps and restarts."""
    gaps = {gap.index for gap in number_gaps(chapters)}
    return tuple(sorted(gaps | set(numbering_restarts(chapters))))
