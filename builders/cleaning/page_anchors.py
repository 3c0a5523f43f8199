"""Page anchors inside English sentences, learned per book (`en/inline-page-anchors`).

E-texts made from HTML editions keep the printed page numbers as anchors in the running
text: `…the house [Pg 23] was…`, `{23}`, `[p. 23]`, `[Page 23]`. A page number on a line
of its own is learned boilerplate (`learned/page-marker`); these sit inside sentences.
As for Chinese inline marks (`inline_page_markers.py`), no shape is named here: an
*anchor* is a number of up to four digits in square brackets or braces, with at most a
short word before it (`Pg`, `p.`, `Page`). Anchors of one shape are page numbers when
they are many (`MIN_MARKS`) and count up through the book (`MIN_RISING` of consecutive
ones rising by 1 to `MAX_STEP`); those continuing the series are removed with one of the
spaces around them, each counted.

A number alone in square brackets (`[12]`) is left alone: that is how footnote
references are printed, and footnote markers go with their notes (`en/footnote-marker`,
`en/footnote-text`), never without them. An anchor alone on its line is the learned page-marker's.
"""

from __future__ import annotations

import re
from collections import defaultdict

from lengthwise.builders.cleaning.inline_page_markers import (
    MIN_MARKS,
    MIN_RISING,
    Mark,
    rising_series,
    rising_share,
    series_learned,
)
from lengthwise.builders.cleaning.learned import LearnedLine
from lengthwise.builders.cleaning.ledger import Edit
from lengthwise.builders.cleaning.rules import OutcomeRule, RuleOutcome, edited_outcome

NAME = "en/inline-page-anchors"
_ANCHOR = re.compile(
    r"(?:\[(?P<word>[A-Za-z]{1,4}\.?)[ \t]*|\{[ \t]*(?P<braced>(?:[A-Za-z]{1,4}\.?[ \t]*)?))"
    r"(?P<number>\d{1,4})[ \t]*[\]}]"
)


def _shape(match: re.Match[str]) -> str:
    """The anchor with its number folded: `[Pg 0]`, `{0}`."""
    whole = match.group()
    return (
        whole[: match.start("number") - match.start()]
        + "0"
        + whole[match.end("number") - match.start() :]
    )


def _removal(text: str, start: int, end: int) -> Edit | None:
    """The anchor with one space beside it; None when it stands alone on its line."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    if not text[line_start:start].strip() and not text[end:line_end].strip():
        return None
    if start > line_start and text[start - 1] == " " and (end == line_end or text[end] == " "):
        return (start - 1, end, "")  # `house [Pg 23] was` -> `house was`
    if start == line_start and text.startswith(" ", end):
        return (start, end + 1, "")
    return (start, end, "")


def remove_page_anchors(text: str) -> RuleOutcome:
    """Learn this book's page anchors and remove them (see the module docstring)."""
    if text.count("[") + text.count("{") < MIN_MARKS:
        return RuleOutcome(text, 0)
    shapes: dict[str, list[Mark]] = defaultdict(list)
    for match in _ANCHOR.finditer(text):
        shapes[_shape(match)].append(Mark(match.start(), match.end(), int(match.group("number"))))
    edits: list[Edit] = []
    learned: list[LearnedLine] = []
    for shape, marks in shapes.items():
        if len(marks) < MIN_MARKS or rising_share(marks) < MIN_RISING:
            continue
        found = [_removal(text, mark.start, mark.end) for mark in rising_series(marks)]
        removals = [edit for edit in found if edit is not None]
        if not removals:
            continue
        edits += removals
        learned.append(series_learned(NAME, shape, len(removals), marks, "anchors"))
    return edited_outcome(text, sorted(edits), tuple(learned))


PAGE_ANCHORS = OutcomeRule(
    name=NAME,
    description=(
        "Printed page numbers kept as anchors inside English sentences (`[Pg 23]`, `{23}`, "
        "`[p. 23]`): anchors of one shape that are many and count up through the book "
        "are removed with a space beside them; learned per book. `[12]` alone is a "
        "footnote reference and stays."
    ),
    change=remove_page_anchors,
    languages=("en",),
)
