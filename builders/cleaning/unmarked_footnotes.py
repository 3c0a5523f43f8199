"""`en/unmarked-footnote`: notes printed without a mark, laid out like the marked ones.

Some editions number only some notes: Gutenberg's War and Peace prints the translation
of a French line as an indented paragraph after the paragraph that holds it, and only
the second and later notes of a paragraph carry `(2)`, `(3)`. `en/symbol-footnote` takes
the numbered ones with their marks; the first note of each paragraph has no mark to
pair, so it stayed in mid-narrative.

The book's own paired notes teach their layout: the indentation of a note's first line
and of its continuation lines. In a book with `MIN_PAIRED_NOTES` paired notes, an
unmarked paragraph laid out the same way (first-line indentation among the notes',
continuation lines among theirs) that directly follows body text or another note is a
note too. Nothing is learned where the layout does not set notes apart: when the notes'
indentation is the body text's own (the most common first-line indentation), or when
fewer than `MIN_INDENTED_SHARE` of the paired notes are indented. A poem or table with
another indentation (War and Peace's verses at 3 and 4 spaces, its table of numbers)
stays.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from lengthwise.builders.cleaning.rules import HSPACE, BlockRule, Span
from lengthwise.builders.cleaning.symbol_footnotes import (
    NOTE_MARK_TRIGGERS,
    SYMBOL_FOOTNOTE,
    paired_notes,
)

MIN_PAIRED_NOTES = 3
MIN_INDENTED_SHARE = 0.8
_BREAK = re.compile(rf"\n(?:{HSPACE}*\n)+")
_OPENS_WITH_MARK = re.compile(r"[^\S\n]*(?:[*†‡§¹²³⁴⁵⁶⁷⁸⁹⁰]|\(\d)")


@dataclass(frozen=True)
class _Paragraph:
    start: int  # its first line's start
    end: int  # after the blank lines that follow it
    first_indent: int
    continuation_indents: frozenset[int]


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _paragraphs(text: str) -> list[_Paragraph]:
    paragraphs = []
    start = 0
    for gap in (*_BREAK.finditer(text), None):
        stop, end = (len(text), len(text)) if gap is None else gap.span()
        lines = text[start:stop].split("\n")
        if any(line.strip() for line in lines):
            indents = frozenset(_indent(line) for line in lines[1:] if line.strip())
            paragraphs.append(_Paragraph(start, end, _indent(lines[0]), indents))
        start = end
    return paragraphs


def unmarked_footnotes(text: str) -> list[Span]:
    """Paragraphs (with the blank lines after them) laid out like the paired notes."""
    pairs = paired_notes(text)
    if len(pairs) < MIN_PAIRED_NOTES:
        return []
    paragraphs = _paragraphs(text)
    note_starts = {note[0] for _, note in pairs}
    notes = [p for p in paragraphs if p.start in note_starts]
    body_indent = Counter(p.first_indent for p in paragraphs).most_common(1)[0][0]
    indented = [p for p in notes if p.first_indent > body_indent]
    if len(indented) < MIN_INDENTED_SHARE * len(notes):
        return []
    firsts = {p.first_indent for p in indented}
    continuations = frozenset().union(*(p.continuation_indents for p in indented))
    if body_indent in continuations:
        return []
    spans: list[Span] = []
    after_body_text = False  # the last paragraph that is not a note was body text
    for paragraph in paragraphs:
        if paragraph.start in note_starts:
            continue
        shaped = (
            paragraph.first_indent in firsts
            and paragraph.continuation_indents <= continuations
            and not _OPENS_WITH_MARK.match(text, paragraph.start)
        )
        if shaped and after_body_text:
            spans.append((paragraph.start, paragraph.end))
        else:
            after_body_text = paragraph.first_indent == body_indent
    return spans


UNMARKED_FOOTNOTE = BlockRule(
    name="en/unmarked-footnote",
    description="Notes without a mark, in a book with 3 or more paired symbol footnotes: "
    "a paragraph right after body text, indented like the book's marked notes.",
    find_blocks=unmarked_footnotes,
    languages=SYMBOL_FOOTNOTE.languages,
    triggers=NOTE_MARK_TRIGGERS,
)
