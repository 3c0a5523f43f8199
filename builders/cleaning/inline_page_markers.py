"""Page numbers inside Chinese paragraphs, learned per book (`zh/inline-page-markers`).

A page number on a line of its own is learned boilerplate (`learned/page-marker`). Files
saved without line breaks, and sites that glue the page mark to the text, leave it
inside a sentence instead: `…古今多少事，[12]都付笑谈中` or `…东逝水。（第12页）浪花…`.
What shape the mark takes differs per source, so none is named here: a *mark* is a run
of ASCII digits standing between two non-digit, non-space characters, with at most two
bracket, dash or space characters (and 第/页) around it. Marks of one shape (the
characters around the number) are page numbers when they are many (`MIN_MARKS`) and
count up through the book: at least `MIN_RISING` of consecutive marks rise by 1 to
`MAX_STEP`. Numbers in classical or modern prose (years, counts) do not form such a
rising series. Only marks that continue the series (rising by 1 to `MAX_STEP` from
their neighbour) are removed, each counted; the text on both sides is joined as it was.
Books that are mostly ASCII (English) are left to the English rules.

Chapter numbers also rise by one: `Chapter 12 风起` or `卷 3 归来` at the start of a heading
line is a mark of one shape too. A series whose marks sit at the start of short lines
and come several printed pages apart (`chapter_numbers.spaced_like_chapters`) is numbering
headings, not pages, and is left for chapter detection.
"""

from __future__ import annotations

import itertools
import re
from collections import defaultdict
from dataclasses import dataclass

from lengthwise.builders.cleaning.chapter_numbers import spaced_like_chapters
from lengthwise.builders.cleaning.learned import LearnedLine
from lengthwise.builders.cleaning.ledger import Edit
from lengthwise.builders.cleaning.rules import (
    OutcomeRule,
    RuleOutcome,
    ascii_index,
    edited_outcome,
    occurrences,
)
from lengthwise.text.numerals import ALL_DIGITS, DIGIT_CLASS

NAME = "zh/inline-page-markers"
MIN_MARKS = 20
MIN_RISING = 0.8
MAX_STEP = 3
_WRAP = r"[\[\]()（）〔〕【】<>〈〉\-—－~ ]"
_MARK = re.compile(
    # Glued on the left to text, not to a wrapper or 第 of its own (a mark on a line of
    # its own, `\n第12页`, would otherwise match from its digits and leave the 第).
    rf"(?<=[^\s\d{DIGIT_CLASS}\[\]()（）〔〕【】<>〈〉\-—－~第])"
    rf"(?P<before>{_WRAP}{{0,2}}第?)(?P<number>\d{{1,4}})"
    rf"(?P<after>[页頁]?{_WRAP}{{0,2}})(?=[^\s\d{DIGIT_CLASS}]|[ \t\u3000]*(?:\n|$))"
)


_DIGITS = ALL_DIGITS
# A heading line: short, with its number near the start (`Chapter 12 风起`, `卷 3 归来`).
_HEADING_LINE_CHARS = 60
_HEADING_NUMBER_WITHIN = 20
_HEADING_SHARE = 0.9


def _marks(text: str, digits: list[str]) -> list[re.Match[str]]:
    """Every mark, found from the digits the text holds (`str.find` is far cheaper than
    a pattern tried at every position of a Chinese book, where digits are rare)."""
    positions = sorted(
        position
        for digit in digits
        for position in occurrences(text, digit)
        if position == 0 or not text[position - 1].isdigit()  # a run's first digit
    )
    found = []
    for position in positions:
        # The widest prefix first, as a scan from the left would find it.
        for start in range(max(0, position - 3), position + 1):
            match = _MARK.match(text, start)
            if match is not None and match.start("number") == position:
                found.append(match)
                break
    return found


@dataclass(frozen=True)
class Mark:
    """A number found in the text: where it sits and its value."""

    start: int
    end: int
    number: int


def rising_series(marks: list[Mark]) -> list[Mark]:
    """The marks that continue a rising page series from a neighbour."""
    kept = []
    for index, mark in enumerate(marks):
        before = marks[index - 1].number if index > 0 else None
        after = marks[index + 1].number if index + 1 < len(marks) else None
        rises_from = before is not None and 0 < mark.number - before <= MAX_STEP
        rises_to = after is not None and 0 < after - mark.number <= MAX_STEP
        if rises_from or rises_to:
            kept.append(mark)
    return kept


def rising_share(marks: list[Mark]) -> float:
    pairs = list(itertools.pairwise(marks))
    rising = sum(1 for a, b in pairs if 0 < b.number - a.number <= MAX_STEP)
    return rising / len(pairs) if pairs else 0.0


def _numbers_headings(text: str, marks: list[Mark]) -> bool:
    """Whether a series numbers heading lines: its marks (nearly) all sit near the start
    of short lines, and they come several printed pages apart on average."""
    if not spaced_like_chapters([mark.start for mark in marks], "zh"):
        return False
    at_heading = 0
    for mark in marks:
        line_start = text.rfind("\n", 0, mark.start) + 1
        line_end = text.find("\n", mark.end)
        line_end = len(text) if line_end < 0 else line_end
        if (
            mark.start - line_start <= _HEADING_NUMBER_WITHIN
            and line_end - line_start <= _HEADING_LINE_CHARS
        ):
            at_heading += 1
    return at_heading >= _HEADING_SHARE * len(marks)


def remove_inline_page_markers(text: str) -> RuleOutcome:
    """Learn this book's inline page marks and remove them (see the module docstring)."""
    index = ascii_index(text)
    if index is None:
        return RuleOutcome(text, 0)  # mostly-ASCII text: the English rules' business
    shapes: dict[tuple[str, str, str], list[Mark]] = defaultdict(list)
    for match in _marks(text, [d for d in _DIGITS if d in index[1] or not d.isascii()]):
        # Full-width digits are another shape: they are also what mojibake leaves.
        kind = "ascii" if match.group("number").isascii() else "full-width"
        shape = (match.group("before"), match.group("after"), kind)
        shapes[shape].append(Mark(match.start(), match.end(), int(match.group("number"))))
    edits: list[Edit] = []
    learned: list[LearnedLine] = []
    for (before, after, _), marks in shapes.items():
        if len(marks) < MIN_MARKS or rising_share(marks) < MIN_RISING:
            continue
        series = rising_series(marks)
        if _numbers_headings(text, series):
            continue
        edits += [(mark.start, mark.end, "") for mark in series]
        shown = f"{before}{series[0].number}{after}"
        learned.append(series_learned(NAME, shown, len(series), marks, "marks"))
    return edited_outcome(text, sorted(edits), tuple(learned))


def series_learned(
    rule: str, shown: str, removed: int, marks: list[Mark], what: str
) -> LearnedLine:
    """The book report's line for one learned series of page numbers."""
    share = rising_share(marks)
    reason = f"{len(marks)} {what} of this shape, {share:.0%} rising by 1-{MAX_STEP}"
    return LearnedLine(rule, shown, removed, "book", reason)


INLINE_PAGE_MARKERS = OutcomeRule(
    name=NAME,
    description=(
        "Page numbers glued inside Chinese text (`，[12]都付`, `。（第12页）`): marks of one "
        "shape that are many and count up through the book are removed; learned per book."
    ),
    change=remove_inline_page_markers,
)
