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
must open with the mark, a space and a word (not another mark: `* * *` stays), after a
blank line or, in a book without blank lines (`chapters.layout`), after a paragraph's
end.
"""

from __future__ import annotations

import functools
import re

from lengthwise.builders.chapters.layout import Layout
from lengthwise.builders.cleaning.blocks import line_paragraph_end, line_paragraphs_width
from lengthwise.builders.cleaning.rules import HSPACE, BlockRule, Span

LOOKBACK = 20_000
_SUPERSCRIPTS = "¹²³⁴⁵⁶⁷⁸⁹⁰"
NOTE_MARK_TRIGGERS = ("*", "†", "‡", "§", "(", *_SUPERSCRIPTS)
# The characters a mark is made of, `(` and digits aside (for `(1)`).
MARK_CHARACTERS = "*†‡§" + _SUPERSCRIPTS
NOTE_MARK = rf"\*{{1,3}}|[†‡§]{{1,2}}|[{_SUPERSCRIPTS}]{{1,3}}|\(\d{{1,2}}\)"
# A paragraph opening with a mark, a space and a word or an opening quote, after a blank
# line (the text's first paragraph cannot be a note: no reference stands before it).
# The pattern opens with a literal newline, so the regex engine skips from newline to
# newline (an alternation with `\A` first made it try every position: 20 ms on War and
# Peace, now 2 ms).
_NOTE_OPENING = re.compile(rf"\n{HSPACE}*\n{HSPACE}*(?P<mark>{NOTE_MARK}){HSPACE}+(?=[\w\"'“‘(])")
# The same at a line start, in a book without blank lines (`_pairs` checks that the line
# above ends a paragraph).
_LINE_NOTE_OPENING = re.compile(rf"\n{HSPACE}*(?P<mark>{NOTE_MARK}){HSPACE}+(?=[\w\"'“‘(])")
# A note paragraph goes with the blank lines after it: the break before it stays.
_PARAGRAPH_END = re.compile(rf"\n(?:{HSPACE}*\n)+|\Z")
# What a reference mark is glued to: a word, punctuation or a dash (`Oh--³`, `Oh—*`).
_GLUED_BEFORE = re.compile(r"[\w.,;:!?'\"’”)\-–—]")
_SENTENCE_END_BEFORE = ".!?\"'’”"


@functools.cache
def _mark_pattern(mark: str) -> re.Pattern[str]:
    # The mark first (a literal the engine finds fast), what stands before it checked
    # in `_is_reference`: a lookbehind first made the engine try every position.
    return re.compile(rf"{re.escape(mark)}(?![*†‡§{_SUPERSCRIPTS}\w])")


def _is_reference(text: str, start: int, mark: str) -> bool:
    """Whether the mark at `start` is glued to what precedes it (see the module doc)."""
    if start == 0 or text[start - 1] == mark[0]:  # `**bold**` is no mark
        return False
    if _GLUED_BEFORE.match(text, start - 1):
        return True
    spaced = mark.startswith("(") and start >= 2 and text[start - 1] == " "
    return spaced and text[start - 2] in _SENTENCE_END_BEFORE


def _reference(text: str, mark: str, start: int, stop: int) -> Span | None:
    """The last reference to `mark` glued to a word in text[start:stop], or None."""
    found = None
    for match in _mark_pattern(mark).finditer(text, start, stop):
        if _is_reference(text, match.start(), mark):
            found = match.span()
    return found


# One slot, matched by identity (as `rules._facts`): `en/unmarked-footnote` and
# `en/symbol-footnote` ask for the pairs of the same text one after the other.
_last_pairs: list[tuple[str, tuple[tuple[Span, Span], ...]]] = []


def paired_notes(text: str) -> tuple[tuple[Span, Span], ...]:
    """Each reference mark and its note paragraph (from its line start), in text order."""
    if _last_pairs and _last_pairs[0][0] is text:
        return _last_pairs[0][1]
    pairs = _pairs(text)
    _last_pairs[:] = [(text, pairs)]
    return pairs


def _pairs(text: str) -> tuple[tuple[Span, Span], ...]:
    pairs: list[tuple[Span, Span]] = []
    searched_from: dict[str, int] = {}
    layout = Layout.of(text)
    # Without blank lines in the book, a note opens a line after a paragraph's end and
    # runs to its own (`blocks.line_paragraph_end`, by the wrap width).
    width = line_paragraphs_width(text)
    openings = _NOTE_OPENING if width is None else _LINE_NOTE_OPENING
    for opening in openings.finditer(text):
        if width is not None and not layout.ends_paragraph(text, opening.start() + 1):
            continue
        mark = opening.group("mark")
        note_start = opening.start("mark")
        start = max(searched_from.get(mark, 0), note_start - LOOKBACK)
        reference = _reference(text, mark, start, text.rfind("\n", 0, note_start))
        if reference is None:
            continue
        if width is None:
            end = _PARAGRAPH_END.search(text, opening.end())
            note_end = len(text) if end is None else end.end()
        else:
            note_end = line_paragraph_end(text, text.rfind("\n", 0, note_start) + 1, width)
        pairs.append((reference, (text.rfind("\n", 0, note_start) + 1, note_end)))
        searched_from[mark] = note_end
    return tuple(pairs)


def symbol_footnotes(text: str) -> list[Span]:
    """Spans of each paired reference mark and its note paragraph."""
    return sorted(span for pair in paired_notes(text) for span in pair)


SYMBOL_FOOTNOTE = BlockRule(
    name="en/symbol-footnote",
    description="Footnotes marked *, †, ‡, §, ¹ or (1): the note paragraph opening with "
    "the mark and the same mark glued to a word before it, removed as a pair.",
    find_blocks=symbol_footnotes,
    languages=("en",),
    triggers=NOTE_MARK_TRIGGERS,
)

# A superscript number glued to a word: a note reference. Those left after the pairs
# above refer to notes printed elsewhere, an endnotes section at the end of the book
# (`en/footnote-block`), or to none at all.
MIN_SUPERSCRIPT_MARKS = 3
_SUPERSCRIPT_RUN = re.compile(rf"[{_SUPERSCRIPTS}]{{1,3}}(?![{_SUPERSCRIPTS}\w])")


def superscript_marks(text: str) -> list[Span]:
    """Superscript numbers glued to a word or punctuation, when the book has a few."""
    spans = [
        match.span()
        for match in _SUPERSCRIPT_RUN.finditer(text)
        if match.start() > 0 and _GLUED_BEFORE.match(text, match.start() - 1)
    ]
    return spans if len(spans) >= MIN_SUPERSCRIPT_MARKS else []


SUPERSCRIPT_MARKER = BlockRule(
    name="en/superscript-marker",
    description="Superscript note references (word¹, end.²³) left after the paired notes "
    f"go, in a book with {MIN_SUPERSCRIPT_MARKS} or more: their notes are printed "
    "elsewhere (an endnotes section) or not at all.",
    find_blocks=superscript_marks,
    languages=("en",),
    triggers=tuple(_SUPERSCRIPTS),
)
