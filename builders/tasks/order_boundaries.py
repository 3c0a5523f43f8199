"""Where an ordering instance's segments begin and end: boundaries that give no order away.

Segments cut at adjacent paragraphs leave their order on the surface: the words of one
segment's last paragraph come back in the next one's first, a line cut mid-sentence
shows which piece goes on, a paragraph opening with a transition formula (却说, 话说)
marks a new thread. Measured on the shared books by the family's shortcut checks
(`shortcuts_ordering`), a word-overlap solver put 35-60 % of instances in order against
a random 4 %. So, for an instance's window of paragraphs [start, end):

- the window is cut into `segments` pieces balanced by tokens (`balanced_cuts`);
- `gap` paragraphs are left out at every boundary (between segments and between the
  hints and the segments): what is shown on either side of a boundary is never
  adjacent in the book; the hints are placed (up to `MAX_SHIFT` paragraphs further
  out) where they share fewest words with the segment they border;
- each boundary is placed at a scene break near its balanced cut: among the clean
  positions within a quarter of a segment (the paragraph before ends with a sentence
  stop, the paragraph after opens neither with a transition formula nor, in English,
  in lower case), the one where the text shown on either side shares fewest words
  (TextTiling's lexical-cohesion minimum, over the edges a reader sees).

A window without a clean position near one of its cuts is not built (the caller drops
it with `DAMAGED_BOUNDARY`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lengthwise.builders.tasks.sections import balanced_cuts
from lengthwise.builders.tasks.shortcuts_ordering import (
    edge_features,
    ends_unstopped,
    opens_with_formula,
    overlap,
    starts_lowercase,
)

MAX_SHIFT = 3  # paragraphs a boundary may move at least (else a quarter of a segment)
PARAGRAPH_JOIN = "\n\n"
DAMAGED_BOUNDARY = "no clean segment boundary near a cut (a line cut mid-sentence or a formula)"


@dataclass(frozen=True)
class Layout:
    """Paragraph spans (absolute, end exclusive) of the hints and of each segment."""

    before: tuple[int, int]
    segments: list[tuple[int, int]]  # in reading order
    after: tuple[int, int]


def clean_start(paragraphs: Sequence[str], index: int, language: str) -> bool:
    """Whether a segment (or the text after a gap) may start at paragraph `index`."""
    text = paragraphs[index]
    if opens_with_formula(text) or (language == "en" and starts_lowercase(text)):
        return False
    return index == 0 or not ends_unstopped(paragraphs[index - 1])


def _cohesion(paragraphs: Sequence[str], end: int, begin: int, language: str) -> float:
    """Words shared by the text ending at `end` and the text starting at `begin`."""
    left = edge_features(PARAGRAPH_JOIN.join(paragraphs[max(0, end - 3) : end]), language,
                         head=False)  # fmt: skip
    right = edge_features(PARAGRAPH_JOIN.join(paragraphs[begin : begin + 3]), language, head=True)
    return overlap(left, right)


def _boundary(
    paragraphs: Sequence[str], cut: int, low: int, high: int, gap: int, language: str
) -> int | None:
    """The segment start chosen near `cut` (within [low, high)): clean, and of the
    clean ones the least cohesive across its gap, then the closest to the cut."""
    reach = max(MAX_SHIFT, (high - low) // 4)
    found = [
        b
        for b in range(max(low, cut - reach), min(high, cut + reach + 1))
        if clean_start(paragraphs, b, language)
        and not ends_unstopped(paragraphs[b - gap - 1])
    ]  # fmt: skip
    if not found:
        return None
    return min(found, key=lambda b: (_cohesion(paragraphs, b - gap, b, language), abs(b - cut)))


def layout(
    paragraphs: Sequence[str],
    tokens: Sequence[int],
    window: tuple[int, int],
    segments: int,
    hints: int,
    gap: int,
    language: str,
    clean: bool = True,
) -> Layout | None:
    """The spans of one instance over paragraphs[window], or None when a boundary cannot
    be placed or a segment would be empty. `tokens[i]`: paragraph i's count;
    `clean=False` keeps the cuts where the token balance puts them (gaps still apply)."""
    start, end = window
    cuts = [start + c for c in balanced_cuts(tokens[start:end], segments)] + [end]
    starts = [start]
    for k in range(1, segments):
        if not clean:
            starts.append(cuts[k] + gap)
            continue
        # segment k starts after the previous start plus a paragraph and the gap
        low = starts[-1] + 1 + gap
        high = cuts[k + 1]
        chosen = _boundary(paragraphs, cuts[k] + gap, low, high, gap, language)
        if chosen is None:
            return None
        starts.append(chosen)
    spans = [(starts[k], (starts[k + 1] - gap) if k + 1 < segments else end)
             for k in range(segments)]  # fmt: skip
    if clean and (
        ends_unstopped(paragraphs[end - 1]) or not clean_start(paragraphs, start, language)
    ):
        return None
    if any(b <= a for a, b in spans):
        return None
    before, after = _hints(paragraphs, spans, hints, gap, language, clean)
    return Layout(before, spans, after)


def _hints(
    paragraphs: Sequence[str],
    spans: list[tuple[int, int]],
    hints: int,
    gap: int,
    language: str,
    clean: bool,
) -> tuple[tuple[int, int], tuple[int, int]]:
    """The hint spans: `gap` paragraphs or more away from the segments, where (within
    `MAX_SHIFT` more) the hint shares fewest words with the segment it borders."""
    start, end = spans[0][0], spans[-1][1]
    shifts = range(MAX_SHIFT + 1) if clean and hints else range(1)
    before_ends = [e for r in shifts if (e := start - gap - r) - hints >= 0] or [start - gap]
    after_starts = [b for r in shifts if (b := end + gap + r) + hints <= len(paragraphs)]
    after_starts = after_starts or [end + gap]
    first = min(before_ends, key=lambda e: (_cohesion(paragraphs, e, start, language), -e))
    last = min(after_starts, key=lambda b: (_cohesion(paragraphs, end, b, language), b))
    return (max(0, first - hints), max(0, first)), (last, min(len(paragraphs), last + hints))
