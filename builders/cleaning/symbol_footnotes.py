"""`en/symbol-footnote`: footnotes marked with a symbol or a number in parentheses.

Older books and many editions outside Gutenberg mark a note with `*`, `†`, `‡`, `§`, a
superscript digit (`¹`) or `(1)` after a word, and print the note as a paragraph
opening with the same mark. The bracketed forms (`[1]`, `[A]`) are
`en/footnote-block`'s. These marks also occur in prose (`* * *` scene breaks, a list
opening `(1)`, a censored `d*mn`), so a note paragraph is taken only together with its
reference: the same mark glued to a word or punctuation before it (for `(1)`, one
space may stand between when a sentence end or a closing quote comes before it:
`peu," (4)`; `restore: (1) the` and `and (2) the` enumerate), after the previous note
with that mark and within `LOOKBACK` characters. The pair goes together (marker and
note; `cleaning.footnotes = "keep"` keeps both), so text never refers to a note that is
gone; notes printed one after another go as one block. A note paragraph
must open with the mark, a space and a word (not another mark: `* * *` stays).
"""

from __future__ import annotations

import functools
import re

from lengthwise.builders.cleaning.rules import HSPACE, BlockRule, Span

LOOKBACK = 20_000
_SUPERSCRIPTS = "¹²³⁴⁵⁶⁷⁸⁹⁰"
_MARK = rf"\*{{1,3}}|[†‡§]{{1,2}}|[{_SUPERSCRIPTS}]{{1,3}}|\(\d{{1,2}}\)"
# A paragraph opening with a mark, a space and a word or an opening quote.
_NOTE_OPENING = re.compile(
    rf"(?:\A|\n{HSPACE}*\n){HSPACE}*(?P<mark>{_MARK}){HSPACE}+(?=[\w\"'“‘(])"
)
# A note paragraph goes with the blank lines after it: the break before it stays.
_PARAGRAPH_END = re.compile(rf"\n(?:{HSPACE}*\n)+|\Z")
_GLUED_BEFORE = r"[\w.,;:!?'\"’”)]"


@functools.cache
def _reference_pattern(mark: str) -> re.Pattern[str]:
    spaced = r"|(?<=[.!?\"'’”] )" if mark.startswith("(") else ""
    return re.compile(
        rf"(?:(?<={_GLUED_BEFORE}){spaced}){re.escape(mark)}(?![*†‡§{_SUPERSCRIPTS}\w])"
    )


def _reference(text: str, mark: str, start: int, stop: int) -> Span | None:
    """The last reference to `mark` glued to a word in text[start:stop], or None."""
    found = None
    for match in _reference_pattern(mark).finditer(text, start, stop):
        if text[match.start() - 1] != mark[0]:  # `**bold**` is no mark
            found = match.span()
    return found


def symbol_footnotes(text: str) -> list[Span]:
    """Spans of each paired reference mark and its note paragraph."""
    spans: list[Span] = []
    searched_from: dict[str, int] = {}
    for opening in _NOTE_OPENING.finditer(text):
        mark = opening.group("mark")
        note_start = opening.start("mark")
        start = max(searched_from.get(mark, 0), note_start - LOOKBACK)
        reference = _reference(text, mark, start, text.rfind("\n", 0, note_start))
        if reference is None:
            continue
        end = _PARAGRAPH_END.search(text, opening.end())
        note_end = len(text) if end is None else end.end()
        spans += [reference, (text.rfind("\n", 0, note_start) + 1, note_end)]
        searched_from[mark] = note_end
    return sorted(spans)


SYMBOL_FOOTNOTE = BlockRule(
    name="en/symbol-footnote",
    description="Footnotes marked *, †, ‡, §, ¹ or (1): the note paragraph opening with "
    "the mark and the same mark glued to a word before it, removed as a pair.",
    find_blocks=symbol_footnotes,
    languages=("en",),
    triggers=("*", "†", "‡", "§", "(", *_SUPERSCRIPTS),
)
