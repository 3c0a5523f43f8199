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
stays, and so does a paragraph that is not mostly letters (that table, when an edition
sets it in the notes' indentation).

A note-shaped paragraph that opens with a mark the pairing refused (its reference
after a comma and a space, `c'est grand, (2) and`, reads like an enumeration to
`en/symbol-footnote`) is a note by its layout; it goes with the same mark in the body
text just above it (and the space before that), or stays when there is none.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import NamedTuple

from lengthwise.builders.cleaning.rules import HSPACE, BlockRule, Span
from lengthwise.builders.cleaning.symbol_footnotes import (
    MARK_CHARACTERS,
    NOTE_MARK,
    NOTE_MARK_TRIGGERS,
    SYMBOL_FOOTNOTE,
    paired_notes,
)

MIN_PAIRED_NOTES = 3
MIN_INDENTED_SHARE = 0.8
_BREAK = re.compile(rf"\n(?:{HSPACE}*\n)+")
# A mark, a space and a word, as `en/symbol-footnote` reads a note (`* * *` is no note).
_OPENING_MARK = re.compile(rf"{HSPACE}*(?P<mark>{NOTE_MARK}){HSPACE}+(?=[\w\"'“‘(])")
# A paragraph opening with a mark character otherwise (`* * *`) is no note at all.
_MARK_CHARACTER = re.compile(rf"{HSPACE}*(?:[{re.escape(MARK_CHARACTERS)}]|\(\d)")


class _Indented(NamedTuple):
    """A paragraph whose first line is indented."""

    start: int  # its first line's start
    stop: int  # its text's end
    end: int  # after the blank lines that follow it
    first_indent: int


# A paragraph break followed by an indented line. Only indented paragraphs are looked
# at one by one: War and Peace has 12,000 paragraphs and about 500 indented ones.
_INDENTED_START = re.compile(rf"\n(?:{HSPACE}*\n)+(?P<indent>[ \t]+)(?=[^ \t])")
_PARAGRAPH_START = re.compile(rf"\n(?:{HSPACE}*\n)+(?={HSPACE}*\S)")


def _indented_paragraphs(text: str) -> tuple[list[_Indented], int]:
    """The indented paragraphs, and how many paragraphs there are in all."""
    padded = "\n\n" + text  # the first paragraph follows a break too
    indented = []
    for match in _INDENTED_START.finditer(padded):
        start = match.start("indent") - 2
        gap = _BREAK.search(text, start)
        stop, end = (len(text), len(text)) if gap is None else gap.span()
        indented.append(_Indented(start, stop, end, len(match.group("indent"))))
    return indented, sum(1 for _ in _PARAGRAPH_START.finditer(padded))


def _continuation_indents(text: str, paragraph: _Indented) -> frozenset[int]:
    if text.find("\n", paragraph.start, paragraph.stop) < 0:
        return frozenset()
    lines = text[paragraph.start : paragraph.stop].split("\n")[1:]
    return frozenset(len(line) - len(line.lstrip(" \t")) for line in lines if line.strip())


def unmarked_footnotes(text: str) -> list[Span]:
    """Paragraphs (with the blank lines after them) laid out like the paired notes."""
    pairs = paired_notes(text)
    if len(pairs) < MIN_PAIRED_NOTES:
        return []
    note_starts = {note[0] for _, note in pairs}
    paragraphs, total = _indented_paragraphs(text)
    # The body text's indentation: the commonest first-line indentation (0 for every
    # paragraph not listed as indented).
    indents = Counter({0: total - len(paragraphs)})
    indents.update(p.first_indent for p in paragraphs)
    body_indent = indents.most_common(1)[0][0]
    notes = [p for p in paragraphs if p.start in note_starts and p.first_indent > body_indent]
    if len(notes) < MIN_INDENTED_SHARE * len(note_starts):
        return []
    firsts = {p.first_indent for p in notes}
    continuations = frozenset().union(*(_continuation_indents(text, p) for p in notes))
    if body_indent in continuations:
        return []
    spans: list[Span] = []
    after_body_text = False  # the last paragraph that is not a note was body text
    previous_end = 0  # where the last indented paragraph's blank lines end
    body = (0, 0)  # the unindented text before the current run of indented paragraphs
    for paragraph in paragraphs:
        if paragraph.start != previous_end:  # an unindented paragraph came between
            after_body_text = body_indent == 0
            body = (previous_end, paragraph.start)
        previous_end = paragraph.end
        if paragraph.start in note_starts:
            continue
        shaped = (
            paragraph.first_indent in firsts
            and _continuation_indents(text, paragraph) <= continuations
            and _mostly_letters(text[paragraph.start : paragraph.stop])
        )
        if shaped and after_body_text:
            opening = _OPENING_MARK.match(text, paragraph.start)
            if opening is None and not _MARK_CHARACTER.match(text, paragraph.start):
                spans.append((paragraph.start, paragraph.end))
                continue
            # A marked note the pairing refused (its reference after a comma and a
            # space, `c'est grand, (2) and`): its layout says note; the reference is
            # the same mark in the body text just above, and goes with it.
            mark = "" if opening is None else opening.group("mark")
            reference = text.rfind(mark, *body) if mark else -1
            if reference >= 0:
                start = reference - 1 if text[reference - 1] == " " else reference
                spans += [(start, reference + len(mark)), (paragraph.start, paragraph.end)]
                continue
        after_body_text = paragraph.first_indent == body_indent
    return sorted(spans)


def _mostly_letters(paragraph: str) -> bool:
    """Whether letters make up at least half of the paragraph's visible characters (a
    note is words; a table of letters and numbers is not)."""
    visible = "".join(paragraph.split())
    return sum(map(str.isalpha, visible)) * 2 >= len(visible)


UNMARKED_FOOTNOTE = BlockRule(
    name="en/unmarked-footnote",
    description="Notes told by their layout, in a book with 3 or more paired symbol "
    "footnotes: a paragraph right after body text, indented like the book's marked notes, "
    "without a mark, or with one whose reference the pairing refused (after a comma), "
    "then with that reference.",
    find_blocks=unmarked_footnotes,
    languages=SYMBOL_FOOTNOTE.languages,
    triggers=NOTE_MARK_TRIGGERS,
)
