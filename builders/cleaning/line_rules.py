"""`LineRule`: a regex applied only to candidate lines, found cheaply.

Most site noise sits inside one line and carries a recognisable word (a domain, 首页,
更新时间, 求月票 …) or starts its line with one. Candidate lines are those holding an
anchor (found with `str.find`) or a match of a locator regex that starts with a
literal, typically ``\n`` then a line-start prefix (`re` skips to each newline in C).
Running the real pattern on those lines alone is tens of times faster than a regex
over a whole book whose pattern cannot start with a literal. Rules whose locators look
at line starts can share one scan of the text (`LineStartGroup`), and anchor questions
are answered once per text (`rules.occurs`).

A line that the substitution leaves blank is dropped together with the blank lines
just above it, so an advert between two paragraphs leaves one paragraph break.
"""

from __future__ import annotations

import bisect
import itertools
import re
from dataclasses import dataclass

from lengthwise.builders.cleaning.broken_paragraphs import sentence_halves_joiner
from lengthwise.builders.cleaning.ledger import Edit, apply_edits
from lengthwise.builders.cleaning.rules import (
    MAX_EXAMPLES,
    Replacement,
    RuleOutcome,
    first_index,
    format_example,
)
from lengthwise.builders.cleaning.structure_lines import is_structure_line
from lengthwise.builders.cleaning.unwrap import (
    INDENTS,
    may_be_hard_wrapped,
    wrap_width,
    wrapped_continuation,
)


@dataclass(frozen=True)
class LineRule:
    """`pattern` is run (as with `re.sub`) on each candidate line.

    A line is a candidate when it contains one of `anchors` or a match of `locator`
    (searched in the text with a newline put in front, so it may start with ``\n`` to
    mean "at a line start"). Other lines are left alone, so every line `pattern` could
    change must be a candidate. The pattern sees a line without its newline: ``^`` and
    ``$`` are the line's bounds.
    """

    name: str
    description: str
    pattern: re.Pattern[str]
    anchors: tuple[str, ...] = ()
    locator: re.Pattern[str] | None = None
    replacement: Replacement = ""
    languages: tuple[str, ...] = ()
    whitespace_only: bool = False
    # The group `locator` came from (`LineStartGroup.locator`): it shares one scan.
    line_starts: LineStartGroup | None = None

    def __post_init__(self) -> None:
        if not self.anchors and self.locator is None:
            raise ValueError(f"line rule {self.name}: needs anchors or a locator")

    def apply(self, text: str) -> RuleOutcome:
        """Apply the rule to the candidate lines of `text`; count one per changed match."""
        edits: list[Edit] = []
        examples: list[str] = []
        count = 0
        wrap = WrappedPieces(text)
        for start, end in candidate_lines(text, self.anchors, self.locator, self.line_starts):
            line = text[start:end]
            changes = self._changes(line)
            if not changes:
                continue
            count += len(changes)
            for change_start, change_end, new in changes[: MAX_EXAMPLES - len(examples)]:
                examples.append(format_example(text, start + change_start, start + change_end, new))
            new_line = apply_edits(line, changes)
            if line.strip() and not new_line.strip():
                cut_start, cut_end = _line_removal(text, start, wrap.continued_to(start, end))
                # Two removals with only blank lines between may both reach into them.
                edits.append((max(cut_start, edits[-1][1] if edits else 0), cut_end, ""))
            else:  # the changes themselves, so that the ledger shows what was cut
                edits.extend((start + s, start + e, new) for s, e, new in changes)
        if not count:
            return RuleOutcome(text, 0)
        return RuleOutcome(apply_edits(text, edits), count, examples, edits=tuple(edits))

    def _changes(self, line: str) -> list[Edit]:
        changes: list[Edit] = []
        for match in self.pattern.finditer(line):
            if callable(self.replacement):
                new = self.replacement(match)
            else:
                new = match.expand(self.replacement)
            if new != match.group():
                changes.append((match.start(), match.end(), new))
        return changes


def candidate_lines(
    text: str,
    anchors: tuple[str, ...],
    locator: re.Pattern[str] | None = None,
    group: LineStartGroup | None = None,
) -> list[tuple[int, int]]:
    """(start, end) of each candidate line; `end` is the index of its newline (or len).

    With `group`, the lines `locator` matches are found through the group's shared scan.
    """
    starts: set[int] = set()
    if locator is not None and group is not None:
        starts.update(group.line_starts(text, locator))
        locator = None
    for anchor in anchors:
        position = first_index(text, anchor)  # cheap when absent (see `rules.occurs`)
        while position >= 0:
            starts.add(text.rfind("\n", 0, position) + 1)
            end = text.find("\n", position)
            position = -1 if end < 0 else text.find(anchor, end)
    if locator is not None:
        first_end = text.find("\n")
        if locator.search("\n" + (text if first_end < 0 else text[:first_end])):
            starts.add(0)
        for match in locator.finditer(text):
            # A match may start with the newline before its line.
            position = (
                match.start() + 1
                if text[match.start() : match.start() + 1] == "\n"
                else match.start()
            )
            starts.add(text.rfind("\n", 0, position) + 1)
    spans = []
    for start in sorted(starts):
        end = text.find("\n", start)
        spans.append((start, len(text) if end < 0 else end))
    return spans


LINE_INDENT = r"[ \t\u3000\xa0]*+"  # possessive: no backtracking at every newline


class LineStartGroup:
    """Locators of lines that start (after indentation) with given prefixes, scanned once.

    `locator(prefixes)` is ``\n`` + indentation + `prefixes`; prefixes must not match
    a newline. Each such locator alone would scan the whole text for line starts; the
    group finds, in one scan, every line that one of its locators matches
    (`line_starts`), and a locator is tried only on those lines. Rules ask in the order
    their locators were made: a scan covers the asking locator and those made after it,
    so when a rule fires (a new text), the next one rescans only for itself and the
    rules still to come. The last text is held by identity.
    """

    def __init__(self) -> None:
        self._prefixes: list[str] = []
        self._order: dict[re.Pattern[str], int] = {}
        self._scans: dict[int, re.Pattern[str]] = {}
        self._last: tuple[str, int, list[int]] | None = None

    def locator(self, prefixes: str) -> re.Pattern[str]:
        """A locator for lines starting with one of `prefixes` (a regex), in this group."""
        locator = re.compile(rf"\n{LINE_INDENT}(?:{prefixes})")
        self._order[locator] = len(self._prefixes)
        self._prefixes.append(prefixes)
        self._scans.clear()
        return locator

    def line_starts(self, text: str, locator: re.Pattern[str]) -> list[int]:
        """The starts of the lines of `text` at whose start `locator` (of this group) matches."""
        first_end = text.find("\n")
        first_line = "\n" + (text if first_end < 0 else text[:first_end])
        return [
            start
            for start in self._group_starts(text, first_line, self._order[locator])
            if locator.match(first_line if start == 0 else text, max(0, start - 1))
        ]

    def _group_starts(self, text: str, first_line: str, member: int) -> list[int]:
        if self._last is not None and self._last[0] is text and self._last[1] <= member:
            return self._last[2]
        scan = self._scans.get(member)
        if scan is None:
            # A look-ahead consumes only the newline, so no line start is skipped.
            alternatives = "|".join(f"(?:{prefixes})" for prefixes in self._prefixes[member:])
            scan = self._scans[member] = re.compile(rf"\n(?={LINE_INDENT}(?:{alternatives}))")
        starts = [0] if scan.match(first_line) else []
        starts += [match.end() for match in scan.finditer(text)]
        self._last = (text, member, starts)
        return starts


class WrappedPieces:
    """The pieces of a line a fixed-width wrap cut (`unwrap.wrapped_continuation`), for a
    line a rule removes whole; the book's lines and width are read once, when asked."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._lines: list[str] | None = None
        self._starts: list[int] = []
        self._width: int | None = None

    def continued_to(self, start: int, end: int) -> int:
        """The end of the last wrapped piece of line [start, end) (`end` if none)."""
        text = self.text
        if not text.startswith(INDENTS, start) or text.startswith((*INDENTS, "\n"), end + 1):
            return end  # not an indented line with a line at the margin below it
        if self._lines is None:
            self._lines = text.split("\n")
            with_newline = (len(line) + 1 for line in self._lines)
            self._starts = list(itertools.accumulate(with_newline, initial=0))
            hard = may_be_hard_wrapped(text)
            self._width = wrap_width(self._lines) if hard else None
        index = bisect.bisect_right(self._starts, start) - 1
        pieces = wrapped_continuation(self._lines, index, self._width)
        return self._starts[pieces[-1]] + len(self._lines[pieces[-1]]) if pieces else end


def _line_removal(text: str, start: int, end: int) -> tuple[int, int]:
    """The span that deletes line [start, end) and the blank lines just above it.

    When a non-blank line follows right below, the line goes with its own newline
    instead, so that the paragraph break above it (if any) stays. When blank lines lie
    on both sides, the break left is the narrower of the two: a page header padded with
    a blank line on each side, printed where a paragraph ended, leaves one paragraph
    break, not the page's padding added to it. And when the nearest lines above and
    below read as two halves of one sentence (`sentence_halves_joiner`: a page cut it),
    no break is left: they become one line (Chinese) or two lines of one paragraph.
    """
    above, blank_above = _text_line_above(text, start)
    below, blank_ends_below = _text_line_below(text, end)
    if above is not None and below is not None:
        joined = _joined_across(text, above, below)
        if joined is not None:
            return joined
    if below is not None and not blank_ends_below:
        return start, end + 1
    if above is None:
        # Nothing but blank lines above: the line goes with its own newline instead.
        return 0, min(end + 1, len(text))
    if blank_above == 0 or len(blank_ends_below) <= blank_above:
        return above[1], end
    # Before a heading the book's own spacing stays (chapters open after wider gaps).
    if below is not None and is_structure_line(text[below[0] : below[1]]):
        return above[1], end
    # Text follows the last blank line below: keep `blank_above` of them.
    return above[1], blank_ends_below[len(blank_ends_below) - blank_above - 1]


def _text_line_above(text: str, start: int) -> tuple[tuple[int, int] | None, int]:
    """(start, end) of the nearest non-blank line above the line starting at `start`
    (None at the text's start), and the number of blank lines in between."""
    cut = start - 1  # the newline ending the line above
    blank = 0
    while cut >= 0:
        line_start = text.rfind("\n", 0, cut) + 1
        if text[line_start:cut].strip():
            return (line_start, cut), blank
        cut = line_start - 1
        blank += 1
    return None, blank


def _text_line_below(text: str, end: int) -> tuple[tuple[int, int] | None, list[int]]:
    """(start, end) of the nearest non-blank line below the line ending at `end` (None
    when there is none), and the newline ending each blank line in between."""
    blank_ends: list[int] = []
    newline = end
    while newline < len(text):
        following = text.find("\n", newline + 1)
        line_end = len(text) if following < 0 else following
        if text[newline + 1 : line_end].strip():
            return (newline + 1, line_end), blank_ends
        if following < 0:
            break
        blank_ends.append(following)
        newline = following
    return None, blank_ends


def _joined_across(
    text: str, above: tuple[int, int], below: tuple[int, int]
) -> tuple[int, int] | None:
    """The span joining the lines `above` and `below` (start, end) when they are halves
    of one sentence, else None."""
    below_text = text[below[0] : below[1]]
    separator = sentence_halves_joiner(text[above[0] : above[1]], below_text)
    if separator is None:
        return None
    # Chinese halves join on one line; Latin ones stay two lines of one paragraph
    # (a deletion cannot put in the space; unwrapping joins the lines). The second
    # half's indent goes too: it is the page's, not a paragraph's.
    indent = len(below_text) - len(below_text.lstrip())
    return (above[1] if separator == "" else above[1] + 1), below[0] + indent
