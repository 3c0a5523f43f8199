"""How a book sets its paragraphs apart, and so what sets a heading or a title off.

Most books put a blank line between paragraphs; some editions use none (a paragraph a
line, or indented first lines). Heading strength (`candidates_en`), decorated number
lines (`bare_en`), titles on the line below a heading (`next_line_titles`) and, in
cleaning, where a block or a footnote ends (`cleaning/blocks.py`, `en_blocks.py`,
`symbol_footnotes.py`) read a line's surroundings against this layout, not against
blank lines alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Layout:
    """A book's layout. With blank-line paragraphs a heading follows a blank line (a
    wrapped prose line that happens to start `Chapter XII.` does not); without them, a
    heading follows a line that ends a paragraph: by a sentence or closing mark, or by
    falling well short of the book's long lines."""

    blank_line_paragraphs: bool = True
    short_line: int = 0  # without blank lines: a line shorter than this ends a paragraph

    @classmethod
    def of(cls, text: str) -> Layout:
        """The layout of a book's text (the last text's answer is kept: the finders of
        one detection pass ask about the same text in turn)."""
        if _last and _last[0][0] is text:
            return _last[0][1]
        layout = cls._of(text)
        _last[:] = [(text, layout)]
        return layout

    @classmethod
    def _of(cls, text: str) -> Layout:
        # Blank lines are counted in a sample (three windows spread over the book: a
        # layout is the whole book's, and a full count cost ~3 ms per book and call).
        part = sample(text)
        part_lines = part.count("\n") + 1
        lines = int(part_lines * len(text) / max(1, len(part)))  # the book's, estimated
        if lines < _LAYOUT_MIN_LINES or _blank_lines(part) * _LINES_PER_BLANK_LINE >= part_lines:
            return cls()
        stripped = [line.strip() for line in text.split("\n")]
        long_line = sorted(map(len, stripped))[int(len(stripped) * 0.9)]
        return cls(blank_line_paragraphs=False, short_line=int(long_line * _SHORT_SHARE))

    def ends_paragraph(self, text: str, position: int) -> bool:
        """Whether the line above the one holding `position` ends a paragraph (`text`
        with the prepended newline: the book's first line has nothing above it)."""
        line_start = text.rfind("\n", 0, position) + 1
        if line_start <= 1:
            return True
        above = text[text.rfind("\n", 0, line_start - 1) + 1 : line_start - 1].strip()
        return not above or above[-1] in _PARAGRAPH_END or len(above) < self.short_line


# A book sets paragraphs apart by blank lines when it has one per this many lines (a
# wrapped paragraph rarely runs longer); too short a text to tell keeps the usual layout.
_LINES_PER_BLANK_LINE = 40
_LAYOUT_MIN_LINES = 200
_SHORT_SHARE = 0.6
_PARAGRAPH_END = frozenset(".!?:;)]}\"'”’_*")


_WINDOW = 20_000
_BLANK_LINE = re.compile(r"\n[ \t]*(?=\n)")


def sample(text: str) -> str:
    """Three windows of the text (its start, middle and last quarter), or all of it: what
    a book-wide share of line kinds is read on."""
    if len(text) <= 3 * _WINDOW:
        return text
    starts = (len(text) // 10, len(text) // 2, len(text) * 3 // 4)
    return "\n".join(text[start : start + _WINDOW] for start in starts)


def _blank_lines(part: str) -> int:
    found = part.count("\n\n")
    # Spaces on blank lines: the cheap count missed them (asked only when it is low).
    if found * _LINES_PER_BLANK_LINE >= part.count("\n"):
        return found
    return len(_BLANK_LINE.findall(part))


# One slot, matched by identity (a book's text is asked about again and again).
_last: list[tuple[str, Layout]] = []
