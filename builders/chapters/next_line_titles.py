"""English chapter titles printed on the line after the heading.

    CHAPTER I.
    Down the Rabbit-Hole

    Alice was beginning to get very tired…

The second line is the chapter's title, not its first paragraph, when it looks like a
title: short, starts with a capital letter (not a quotation mark: dialogue opens many
chapters), most longer words capitalised (or all capitals), no sentence running on inside
it, no trailing comma or colon, and a blank line (or the end) after it (in a book that
sets no paragraph apart by blank lines, `layout.Layout`: a line that ends a paragraph).
A keyword heading (`CHAPTER II.` of a contents list) is never taken as a title.

A book prints its titles one way. Where titles below the heading are a small minority of
the headings printed without a title of their own, they are first sentences that look
like titles (War and Peace: `CHAPTER VIII` / `Princess Mary was not in Moscow and out of
danger as Prince Andrew supposed.`, the only one of 365), and they go back to the body
(`give_back_odd_titles`).
"""

from __future__ import annotations

import re

from lengthwise.builders.chapters.layout import Layout
from lengthwise.builders.chapters.model import Candidate
from lengthwise.text.numerals import ROMAN_CLASS

MAX_TITLE_CHARS = 80
MAX_BLANK_LINES_BEFORE = 1
_KEYWORD_RE = re.compile(
    r"^(?:CHAPTER|Chapter|CHAP\.|BOOK|Book|PART|Part|VOLUME|Volume|LETTER|Letter|"
    r"PROLOGUE|Prologue|EPILOGUE|Epilogue|STAVE|Stave)\b"
)
_BARE_NUMBER = re.compile(f"^(?:[{ROMAN_CLASS}]+|[0-9]+)\\.?$")  # a section number, not a title
_SENTENCE_INSIDE = re.compile(r"[.!?;]['\"”’)]?\s+[a-z]")
_NON_SPACE = re.compile(r"\S")
_SMALL_WORDS = 3  # words of up to this many letters may stay lowercase (of, the, and)
# Titles below the heading are believed when at least this share of the headings without
# a title on their own line have one.
MIN_TITLED_SHARE = 1 / 3


def title_after(text: str, end: int) -> tuple[str, int] | None:
    """(title, offset after its line) when the line after the heading ending at `end` is a title."""
    position, blanks = end, 0
    while True:
        if position >= len(text) or text[position] != "\n":
            return None
        line_end = text.find("\n", position + 1)
        line_end = len(text) if line_end < 0 else line_end
        line = text[position + 1 : line_end]
        if line.strip():
            break
        blanks += 1
        if blanks > MAX_BLANK_LINES_BEFORE:
            return None
        position = line_end
    title = line.strip()
    # (searched, not sliced: a slice copies the rest of the book for every heading)
    if _NON_SPACE.search(text, line_end) and not text.startswith("\n\n", line_end):
        # A title stands alone: a blank line (or the end) follows it; in a book without
        # blank lines, its line ends a paragraph, and an indented title is not followed
        # by a line at the margin (the rest of a wrapped subtitle, where paragraphs open
        # indented).
        layout = Layout.of(text)
        if layout.blank_line_paragraphs or not layout.ends_paragraph(text, line_end + 1):
            return None
        if line[:1] in " \t" and text[line_end + 1 : line_end + 2] not in (" ", "\t"):
            return None
    return (title, line_end) if looks_like_title(title) else None


def looks_like_title(line: str) -> bool:
    if not line or len(line) > MAX_TITLE_CHARS or not (line[0].isupper() or line[0].isdigit()):
        return False
    if _KEYWORD_RE.match(line) or _BARE_NUMBER.match(line) or line.endswith((",", ";", ":", "-")):
        return False
    if _SENTENCE_INSIDE.search(line):
        return False
    words = [w for w in re.findall(r"[A-Za-z][A-Za-z'’-]*", line) if len(w) > _SMALL_WORDS]
    if not words:
        return True
    capitalised = sum(1 for w in words if w[0].isupper())
    return capitalised * 2 >= len(words)


def give_back_odd_titles(headings: list[Candidate]) -> None:
    """Return titles taken from the line below to their chapter's body where the book
    prints few such titles (`MIN_TITLED_SHARE`)."""
    untitled = [
        c
        for c in headings
        if c.level in ("chapter", "bare") and (c.own_line_end is not None or not c.title)
    ]
    below = [(c, c.own_line_end) for c in untitled if c.own_line_end is not None]
    if not below or len(below) >= MIN_TITLED_SHARE * len(untitled):
        return
    for candidate, own_line_end in below:
        candidate.end, candidate.own_line_end = own_line_end, None
        candidate.heading, candidate.title = candidate.heading.split("\n")[0], ""
