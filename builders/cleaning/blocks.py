"""Whole-block removal: an opening cue, then an end found from the text's structure.

A notice, footnote, illustration or advertisement is rarely one line. Removing only
the line that names it (`DISCLAIMER`, `免责声明`, `[Illustration:`) leaves the rest of
the block in the story while the report says the rule fired. So a `CuedBlockRule`
finds each block's *opening* cheaply (a regex that starts with a literal newline, or
anchored substrings) and then its *end* structurally, by one of:

* `paragraph`: the first blank line after the opening;
* `bracket`: the bracket closing the one the cue opened (nesting counted); a block
  whose bracket never closes within `max_chars` ends at its paragraph instead;
* `vocabulary`: paragraph after paragraph (or, with `by_line`, line after line) while
  each keeps the block's vocabulary density (hits per word at or above `density`);
* `section`: up to the next heading line or a run of two blank lines;
* `to-end`: to the end of the text (back matter).

Every kind of end also stops at the next heading line (a chapter title is never part
of a notice) and at `max_chars`. A block may keep some of its lines (a chapter heading
inside an illustration block): `keep_lines` picks them, and the block is replaced by
them. One block counts one change, whatever its size.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Literal

from lengthwise.builders.chapters.layout import Layout
from lengthwise.builders.cleaning.ledger import Edit
from lengthwise.builders.cleaning.line_rules import WrappedPieces, candidate_lines
from lengthwise.builders.cleaning.rules import (
    Gate,
    RuleOutcome,
    _may_match,
    edited_outcome,
    with_sentinel,
)
from lengthwise.builders.cleaning.structure_lines import is_heading_line
from lengthwise.builders.cleaning.unwrap import wrap_width

EndKind = Literal["paragraph", "bracket", "vocabulary", "section", "to-end"]
_BLANK_LINE = re.compile(r"\n[^\S\n]*\n")
_LINE_BREAK = re.compile(r"\n")
_SECTION_END = re.compile(r"\n(?:[^\S\n]*\n){2,}")
_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class Block:
    """Text [start, end) is replaced by `keep` (usually empty)."""

    start: int
    end: int
    keep: str = ""


@dataclass(frozen=True)
class BlockCue:
    """How one kind of block opens and ends.

    `opening` is searched in the text with a newline put in front (so it should start
    with a literal ``\\n`` meaning "at a line start"); the block starts at the start of
    the line holding the match. `vocabulary` is what the block is made of (for the
    `vocabulary` end and for `min_density` of the opening paragraph).
    """

    opening: re.Pattern[str]
    end: EndKind
    vocabulary: re.Pattern[str] | None = None
    density: float = 0.12
    min_density: float = 0.0  # the opening paragraph itself must reach this
    by_line: bool = False  # vocabulary end: judge line by line, not paragraph by paragraph
    max_chars: int = 4000
    # Substrings one of which an opening line holds: only those lines are tried (fast).
    anchors: tuple[str, ...] = ()


def _line_start(text: str, position: int) -> int:
    return text.rfind("\n", 0, position) + 1


def _line_end(text: str, position: int) -> int:
    end = text.find("\n", position)
    return len(text) if end < 0 else end


def _density(vocabulary: re.Pattern[str], chunk: str) -> float:
    words = len(_WORD.findall(chunk))
    hits = len(vocabulary.findall(chunk))
    # Chinese has no spaces: count characters instead of words, ten to a "word".
    if words and len(chunk) / words > 12:
        words = max(1, len(chunk.strip()) // 10)
    return hits / words if words else 0.0


def _next_heading(text: str, start: int, limit: int) -> int:
    """The start of the first heading line in text[start:limit], or `limit`."""
    position = start
    while position < limit:
        end = _line_end(text, position)
        if position > start and is_heading_line(text[position:end]):
            return position
        position = end + 1
    return limit


def _paragraph_end(text: str, start: int, limit: int) -> int:
    """The end of the paragraph at `start`: its blank line, or in a book without blank
    lines (`chapters.layout.Layout`), its line: there a block never runs on into the
    story after it by want of a blank line."""
    if not Layout.of(text).blank_line_paragraphs:
        return min(limit, _line_end(text, start))
    gap = _BLANK_LINE.search(text, start, limit)
    return limit if gap is None else gap.start()


def line_paragraphs_width(text: str) -> int | None:
    """None in a book that sets paragraphs apart by blank lines; in one that does not,
    its wrap width (`line_paragraph_end`'s), 0 when it is not hard-wrapped."""
    if Layout.of(text).blank_line_paragraphs:
        return None
    return wrap_width(text.split("\n")) or 0


def line_paragraph_end(text: str, start: int, width: int) -> int:
    """Where the paragraph opening at `start` ends in a book without blank lines: after
    its line, and the lines below that continue it (the line above reaches 3/4 of the
    wrap width `width`, 0 when the book is not hard-wrapped, and the one below is no more
    indented: paragraphs open indented), its last line break included."""
    line_start = start
    while True:
        line_end = text.find("\n", line_start)
        if line_end < 0:
            return len(text)
        line = text[line_start:line_end]
        below_end = text.find("\n", line_end + 1)
        below = text[line_end + 1 : len(text) if below_end < 0 else below_end]
        deeper = len(below) - len(below.lstrip(" \t")) > len(line) - len(line.lstrip(" \t"))
        if not width or len(line) < 0.75 * width or deeper or not below.strip():
            return line_end + 1
        line_start = line_end + 1


def _bracket_end(text: str, start: int, limit: int) -> int | None:
    """The index after the `]` closing the first `[` at or after `start`, or None."""
    depth = 0
    opened = text.find("[", start, limit)
    if opened < 0:
        return None
    for index in range(opened, limit):
        char = text[index]
        if char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
            if depth == 0:
                return index + 1
    return None


def _vocabulary_end(text: str, cue: BlockCue, start: int, limit: int) -> int:
    """Extend paragraph by paragraph (or line by line) while the vocabulary stays dense."""
    assert cue.vocabulary is not None
    by_line = cue.by_line or not Layout.of(text).blank_line_paragraphs
    step = _LINE_BREAK if by_line else _BLANK_LINE
    end = _line_end(text, start) if by_line else _paragraph_end(text, start, limit)
    while end < limit:
        following = end + 1
        while following < limit and text[following] in " \t\n\u3000":
            following += 1
        if following >= limit:
            return limit
        gap = step.search(text, following, limit)
        chunk_end = limit if gap is None else gap.start()
        chunk = text[following:chunk_end]
        if is_heading_line(text[following : _line_end(text, following)]):
            break
        if _density(cue.vocabulary, chunk) < cue.density:
            break
        end = chunk_end
    return end


def block_end(text: str, cue: BlockCue, start: int) -> int:
    """Where the block opening at `start` (a line start) ends, per `cue.end`."""
    limit = min(len(text), start + cue.max_chars)
    limit = _next_heading(text, start, limit)
    if cue.end == "to-end":
        return len(text) if limit == min(len(text), start + cue.max_chars) else limit
    if cue.end == "bracket":
        closed = _bracket_end(text, start, min(len(text), start + cue.max_chars))
        return closed if closed is not None else _paragraph_end(text, start, limit)
    if cue.end == "paragraph":
        return _paragraph_end(text, start, limit)
    if cue.end == "section":
        gap = _SECTION_END.search(text, start, limit)
        return limit if gap is None else gap.start()
    return _vocabulary_end(text, cue, start, limit)


def _openings(work: str, text: str, cue: BlockCue) -> Iterator[re.Match[str]]:
    """Matches of `cue.opening` in `work` ("\n" + text), only on anchor lines if it has any."""
    if not cue.anchors:
        yield from cue.opening.finditer(work)
        return
    for line_start, _ in candidate_lines(text, cue.anchors):
        match = cue.opening.match(work, line_start)  # work[line_start] is the "\n" before it
        if match is not None:
            yield match


def find_blocks(
    text: str, cue: BlockCue, keep_lines: Callable[[str], list[str]] | None = None
) -> list[Block]:
    """Every block `cue` opens in `text`, in order, not overlapping."""
    blocks: list[Block] = []
    work = with_sentinel(text)
    wrapped = WrappedPieces(text)
    position = 0
    for match in _openings(work, text, cue):
        if match.start() < position:
            continue
        start = _line_start(text, max(0, match.start()))  # work offset - 1 = text offset
        end = block_end(text, cue, start)
        if text.startswith("\n", end):  # the rest of its last line, cut by a wrap
            end = wrapped.continued_to(text.rfind("\n", 0, end) + 1, end)
        position = max(match.end(), end + 1)
        if end <= start:
            continue
        chunk = text[start:end]
        too_sparse = (
            cue.vocabulary is not None and _density(cue.vocabulary, chunk) < cue.min_density
        )
        if cue.min_density and too_sparse:
            continue
        keep = "\n".join(keep_lines(chunk)) if keep_lines is not None else ""
        blocks.append(Block(start, end, keep))
    return blocks


_TRAILING_BLANK_LINES = re.compile(r"\n(?:[^\S\n]*\n)*")


def _removal_span(text: str, block: Block) -> tuple[int, int]:
    """The span to replace so that the text around a removed block reads as if it never was.

    After a paragraph break, the block takes the blank lines below it (the break above
    stays); inside a paragraph, it takes the line end above it.
    """
    start, end = block.start, block.end
    if block.keep or (start > 0 and text[start - 1] != "\n"):
        return start, end  # a block inside a line: just its characters
    if start == 0 or text[:start].rstrip(" \t").endswith("\n\n"):
        below = _TRAILING_BLANK_LINES.match(text, end)
        return start, end if below is None else below.end()
    # The line end above goes; the block's own trailing line ends stay, or the line
    # above would be glued to the one below (`《书名》` onto `第一回 …`).
    return start - 1, start + len(text[start:end].rstrip())


@dataclass(frozen=True)
class CuedBlockRule:
    """A `TextRule` removing the blocks `finder` reports, one change per block.

    A removed block takes one adjacent line end with it, so the lines around it keep
    their paragraph break and no blank line is added.
    """

    name: str
    description: str
    finder: Callable[[str], list[Block]]
    languages: tuple[str, ...] = ()
    triggers: tuple[str, ...] = ()
    gate: Gate | None = None
    whitespace_only: bool = False

    def apply(self, text: str) -> RuleOutcome:
        """Replace each block by what it keeps; count one per block."""
        if not _may_match(self.triggers, self.gate, text):
            return RuleOutcome(text, 0)
        blocks = self.finder(text)
        if not blocks:
            return RuleOutcome(text, 0)
        edits: list[Edit] = []
        last = 0
        for block in blocks:
            start, end = _removal_span(text, block)
            start = max(start, last)
            edits.append((start, end, block.keep))
            last = end
        return edited_outcome(text, edits)
