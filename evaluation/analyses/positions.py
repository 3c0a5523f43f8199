"""Where in a context a piece of text sits: fixed-size passages, thirds and deciles.

A context is cut into passages of a fixed number of characters (300 for Chinese,
800 for English, about 200 tokens either way), made smaller for short contexts so that
every context has at least `MIN_PASSAGES` of them (deciles need ten at least). A cut
moves forward to the next sentence end when one is within a passage length (so that a
sentence copied into a summary sits whole in one passage), else, in English, to the next
space (no word is split). A passage's position is
its centre's character offset over the context's length, in [0, 1].
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from lengthwise.text.segment import sentences

PASSAGE_CHARS: Final = {"zh": 300, "en": 800}
MIN_PASSAGES: Final = 20
THIRDS: Final = ("beginning", "middle", "end")
DECILES: Final = 10


@dataclass(frozen=True)
class Passage:
    text: str
    start: int
    end: int
    position: float  # centre / context length, in [0, 1]


def passage_size(context: str, language: str) -> int:
    size = PASSAGE_CHARS.get(language, PASSAGE_CHARS["en"])
    return max(1, min(size, len(context) // MIN_PASSAGES))


_SENTENCE_END = re.compile(r"[.!?。！？；…]+[\"'”’」』)）]*")


def _cut_after(context: str, end: int, reach: int, language: str) -> int:
    if end >= len(context):
        return len(context)
    found = _SENTENCE_END.search(context, end, end + reach)
    if found:
        return found.end()
    if language != "zh":
        space = context.find(" ", end, end + reach)
        return space if space >= 0 else end
    return end


def passages(context: str, language: str) -> list[Passage]:
    """The context cut into consecutive fixed-size passages (none for an empty context)."""
    size = passage_size(context, language)
    total = len(context)
    found: list[Passage] = []
    start = 0
    while start < total:
        end = min(total, start + size)
        end = _cut_after(context, end, size, language)
        piece = context[start:end]
        if piece.strip():
            found.append(Passage(piece, start, end, (start + end) / 2 / total))
        start = end
    return found


def summary_sentences(text: str, language: str) -> list[str]:
    """The sentences of a summary (or of any output) to be traced."""
    return sentences(text, "zh" if language == "zh" else "en") if text.strip() else []


def third_of(position: float) -> int:
    return min(2, int(position * 3))


def decile_of(position: float) -> int:
    return min(DECILES - 1, int(position * DECILES))


def shares(positions: Iterable[float], bins: int) -> list[float]:
    """Share of positions falling in each of `bins` equal bins of [0, 1] (zeros if none)."""
    counts = [0] * bins
    for position in positions:
        counts[min(bins - 1, int(position * bins))] += 1
    total = sum(counts)
    return [c / total if total else 0.0 for c in counts]


def weighted_mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None
