"""Account for every character of a cleaned book: in a chapter, or outside with a place.

Chapters are contiguous spans of the cleaned text (heading, body and the blank lines up to
the next heading). Whatever lies outside every chapter span is an *outside span*: `front`
(before the first chapter: title page, contents, an epigraph), `back` (after the last), or
`between` (a part heading, a heading kept out of the chapters such as a zh 楔子). Outside
spans holding only whitespace are separators and are counted, not listed. The invariant:

    len(text) == chapter_chars + outside_chars + separator_chars

Cleaning removals happen before this text exists and are counted by the cleaning rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from typing_extensions import TypedDict

from lengthwise.builders.chapters.model import OutsideKind

FIRST_WORDS_CHARS = 60


class OutsideSpanJson(TypedDict):
    kind: OutsideKind
    offset: int
    length: int
    first_words: str
    note: str


class AccountingJson(TypedDict):
    """An `Accounting` as the book report holds it (`outside_chapters`)."""

    text_chars: int
    chapter_chars: int
    outside_chars: int
    separator_chars: int
    spans: list[OutsideSpanJson]
    share: float  # outside_chars / text_chars


@dataclass
class OutsideSpan:
    kind: OutsideKind
    offset: int  # in the cleaned text
    length: int
    first_words: str
    note: str = ""


@dataclass
class Accounting:
    """Where the characters of one cleaned text went (see the module docstring)."""

    text_chars: int
    chapter_chars: int
    outside_chars: int
    separator_chars: int
    spans: list[OutsideSpan] = field(default_factory=list)

    @property
    def outside_share(self) -> float:
        return self.outside_chars / self.text_chars if self.text_chars else 0.0

    def to_dict(self) -> AccountingJson:
        return {
            "text_chars": self.text_chars,
            "chapter_chars": self.chapter_chars,
            "outside_chars": self.outside_chars,
            "separator_chars": self.separator_chars,
            "spans": [
                {
                    "kind": s.kind,
                    "offset": s.offset,
                    "length": s.length,
                    "first_words": s.first_words,
                    "note": s.note,
                }
                for s in self.spans
            ],
            "share": round(self.outside_share, 6),
        }


def account(
    text: str,
    chapter_spans: Sequence[tuple[int, int]],
    kept_out: Sequence[tuple[int, int, str]] = (),
) -> Accounting:
    """The accounting of `text` given each chapter's (start, end) span.

    `kept_out`: spans a later step took out of the chapters, each with a note saying why
    (a zh 楔子 by default); they are listed as outside spans of their own.
    Raises ValueError when spans overlap or leave the text: that is a detection bug.
    """
    pieces = sorted([(s, e, None) for s, e in chapter_spans] + [(s, e, n) for s, e, n in kept_out])
    spans: list[OutsideSpan] = []
    separators = chapter_chars = position = 0
    first = min((s for s, _ in chapter_spans), default=len(text))
    last = max((e for _, e in chapter_spans), default=len(text))
    for start, end, note in [*pieces, (len(text), len(text), None)]:
        if start < position or end < start or end > len(text):
            raise ValueError(f"span ({start}, {end}) overlaps another or leaves the text")
        gap = text[position:start]
        if gap.strip():
            spans.append(_outside(gap, position, first, last, ""))
        else:
            separators += len(gap)
        if note is None:
            chapter_chars += end - start
        elif end > start:
            spans.append(_outside(text[start:end], start, first, last, note))
        position = end
    outside = sum(s.length for s in spans)
    return Accounting(len(text), chapter_chars, outside, separators, spans)


def _outside(piece: str, start: int, first: int, last: int, note: str) -> OutsideSpan:
    """`first`/`last`: where the first chapter starts and the last one ends."""
    kind: OutsideKind = "between"
    if start < first:
        kind = "front"
    elif start >= last:
        kind = "back"
    return OutsideSpan(kind, start, len(piece), first_words(piece), note)


def first_words(piece: str) -> str:
    """The start of a span as a person would quote it: whitespace collapsed, cut short."""
    words = " ".join(piece.split())
    return words if len(words) <= FIRST_WORDS_CHARS else words[: FIRST_WORDS_CHARS - 1] + "…"


def outside_warning(accounting: Accounting, max_share: float) -> str | None:
    """A readable warning when more than `max_share` of the text is outside every chapter."""
    if accounting.outside_share <= max_share:
        return None
    shown = "; ".join(
        f"{s.kind} {s.length:,} chars at {s.offset:,} ({s.first_words!r})"
        for s in sorted(accounting.spans, key=lambda s: -s.length)[:3]
    )
    return (
        f"{accounting.outside_share:.1%} of the text ({accounting.outside_chars:,} chars) is "
        f"outside chapters (chapters.max_outside_share = {max_share:g}): {shown}"
    )
