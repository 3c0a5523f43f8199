"""`common/double-spacing`: a hard-wrapped book with a blank line after every line.

Text saved from a word processor or a PDF, or an e-text passed through a converter
that doubles line breaks, puts a blank line between all lines, so a paragraph's wrapped
lines look like paragraphs of one line each; unwrapping never joins across a blank line,
and a sample came out as a stack of half-sentences (Tom Sawyer set this way kept 7,135
lines for its 1,857 paragraphs).

Such a book is told by its full lines (within the wrap width's mode, `unwrap.wrap_width`,
read on the non-blank lines): in a hard-wrapped book a full line is inside a paragraph,
followed by the paragraph's next line, nearly never by a blank line; in a double-spaced
one nearly every full line is followed by exactly one blank line. There each single
blank line between two lines is removed (counted, whitespace only); two or more blank
lines stay (a paragraph break: `common/blank-lines` makes it one). Paragraphs marked by
indentation alone are then a book without blank lines, which unwrapping and chapter
detection read by its indentation (`chapters/layout.py`). A book of one-line paragraphs
with a blank line between them (Pride and Prejudice) has no wrap width and is left as
it is.
"""

from __future__ import annotations

from lengthwise.builders.chapters.layout import sample
from lengthwise.builders.cleaning.rules import BlockRule, Span
from lengthwise.builders.cleaning.unwrap import MAX_WIDTH, may_be_hard_wrapped, wrap_width

MIN_FULL_LINES = 50
FULL_SHARE = 0.8  # of the wrap width: a full line
MIN_DOUBLED_SHARE = 0.9  # of full lines followed by exactly one blank line


def doubled_blank_lines(text: str) -> list[Span]:
    """The single blank lines of a double-spaced hard-wrapped book (each with its line
    break), or nothing."""
    # Cheap first: double spacing makes about every other line blank (read on a sample),
    # and most books have no wrap width (a scan of their first pages tells).
    part = sample(text)
    breaks = part.count("\n")
    # (half its line breaks open a blank line, so a wrap width W gives W/2 characters per
    # break at most: far more is a book of long one-line paragraphs)
    too_long = len(part) > breaks * MAX_WIDTH / 2
    if too_long or part.count("\n\n") * 3 < breaks or not may_be_hard_wrapped(text):
        return []
    lines = text.split("\n")
    width = wrap_width(lines)
    if width is None:
        return []
    full = [i for i, line in enumerate(lines[:-2]) if len(line) >= FULL_SHARE * width]
    doubled = [i for i in full if not lines[i + 1].strip() and lines[i + 2].strip()]
    if len(full) < MIN_FULL_LINES or len(doubled) < MIN_DOUBLED_SHARE * len(full):
        return []
    spans: list[Span] = []
    offset = 0
    for index, line in enumerate(lines):
        inside = 0 < index < len(lines) - 1
        if inside and not line.strip() and lines[index - 1].strip() and lines[index + 1].strip():
            spans.append((offset, offset + len(line) + 1))
        offset += len(line) + 1
    return spans


DOUBLE_SPACING = BlockRule(
    name="common/double-spacing",
    description="In a hard-wrapped book with a blank line after nearly every full line, "
    "the single blank lines between lines are removed (two or more stay: a paragraph "
    "break).",
    find_blocks=doubled_blank_lines,
    whitespace_only=True,
)
