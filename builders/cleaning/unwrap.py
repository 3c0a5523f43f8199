"""`common/unwrap-paragraphs`: rejoin hard-wrapped lines into paragraphs.

E-texts are often wrapped at a fixed width (Project Gutenberg at about 70 columns,
Chinese e-texts at 30-40 characters, mid-sentence). Kept as they are, a paragraph is a
stack of half-sentences, and anything that works line by line (extractive drafts,
line-based audits) splices pieces of two sentences together.

Detection uses the book's own line lengths, not a fixed width: a hard-wrapped book has
a sharp upper mode (a large share of its lines within a few characters below one width,
almost none beyond it). Without one (one paragraph per line, or no line breaks at all)
the rule does nothing.

A line is joined to the next when it is *full* (at least 3/4 of the width, or the
next line's first word would not have fitted after it, for space-separated text;
within two characters of the width for CJK, which wraps at any character), both
lines have text, and neither is structure: a heading (see
`structure_lines`), a list item, a contents line, a centred or deeply indented line
(verse, title pages), a line more indented than the one above it (a new paragraph
marked by indentation), or, in indented text, a capitalised line after one ending in
punctuation (verse lines, each starting with a capital). Short lines never start a
join, so verse and dialogue runs are left as they are; a blank line always stays a
paragraph break.

Joining: no space between two CJK characters, nor anywhere in a book that is mostly CJK
(it wraps at any character: `www.shu` / `yaya.com` is one address); at a dash (`—`,
`——`, `--`) a space only when the book mostly writes that dash with a space after it
(`G—— entered`); one space otherwise. A line ending in `word-` before a letter: the
book's own spelling elsewhere decides (`to-⏎morrow` → `to-morrow` where it prints
`to-morrow`, `some-⏎thing` → `something` where it prints `something`); where it prints
neither, the hyphen stays when both halves are words of the book (a compound:
`river-⏎bank`) and goes otherwise (a word a typesetter broke: `holi-⏎day`,
`never-⏎theless`). Words broken at line ends are no evidence of themselves.
One change is counted per line end removed.
"""

from __future__ import annotations

import bisect
import itertools
import re
from dataclasses import dataclass

from lengthwise.builders.chapters.heading_words import MAX_WRAPPED_TITLE_CHARS
from lengthwise.builders.cleaning.cjk_wrap import cut_inside_sentence, spike_widths
from lengthwise.builders.cleaning.ledger import Edit
from lengthwise.builders.cleaning.rules import MAX_EXAMPLES, RuleOutcome, format_example
from lengthwise.builders.cleaning.structure_lines import (
    is_heading_line,
    is_structure_line,
    is_title_line,
)
from lengthwise.builders.language import count_ideographs, count_latin_letters
from lengthwise.text.numerals import ROMAN_CLASS

MIN_LINES = 40  # fewer non-blank lines: too few to see a wrap width
MIN_WIDTH, MAX_WIDTH = 16, 200
MODE_SHARE = 0.35  # share of lines within the mode just below the width
MAX_BEYOND_SHARE = 0.02  # share of lines allowed beyond the width
MAX_INDENT = 8  # more indented lines are verse, quotations set apart, or centred
BEYOND_FACTOR, BEYOND_SLACK = 1.15, 2  # a line beyond width * 1.15 + 2 overflows the width
# Longer lines overflow every width up to MAX_WIDTH (232 characters and more).
BEYOND_ANY_WIDTH = int(MAX_WIDTH * BEYOND_FACTOR + BEYOND_SLACK) + 1
# A line with at least BEYOND_ANY_WIDTH characters, one of them not a space (a blank line
# does not count as a line for `wrap_width`); the book's first line is never matched.
_LONG_LINE = re.compile(rf"\n(?=[^\S\n]*\S)[^\n]{{{BEYOND_ANY_WIDTH}}}")

_LONE_WORD = re.compile(r"[ \t]*[A-Za-z][A-Za-z'’-]*[.,;:!?\"”’]*[ \t]*$")
_LONE_ROMAN = re.compile(f"[ \\t]*[{ROMAN_CLASS}]+\\.?[ \\t]*$")
_VERSE_BREAK = re.compile(r"[,;:.!?'’\"”]$")
_DASHES = ("——", "--", "—", "–")
_DASH_RUN = re.compile("[-—–]+")
_DASH_CHARS = "—–-"
_CJK = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\u3000-\u303f]")
_WORD = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)*")
_TAIL_WORD = re.compile(r"([A-Za-z]+)-$")
_HEAD_WORD = re.compile(r"[A-Za-z]+")
_BROKEN_WORD = re.compile(r"[A-Za-z]+-\n[ \t]*[A-Za-z]+")


def wrap_width(lines: list[str]) -> int | None:
    """The book's hard-wrap width, or None when its lines show no sharp upper mode."""
    lengths = sorted(map(len, filter(str.strip, lines)))
    if len(lengths) < MIN_LINES:
        return None
    width = lengths[int(len(lengths) * 0.95)]
    if not MIN_WIDTH <= width <= MAX_WIDTH:
        return None
    # `lengths` is sorted: count by bisection (integer lengths against float bounds).
    in_mode = bisect.bisect_right(lengths, width + 2) - bisect.bisect_left(lengths, width * 0.8)
    beyond = len(lengths) - bisect.bisect_right(lengths, width * BEYOND_FACTOR + BEYOND_SLACK)
    if in_mode < MODE_SHARE * len(lengths) or beyond > MAX_BEYOND_SHARE * len(lengths):
        return None
    return width


def may_be_hard_wrapped(text: str) -> bool:
    """False where `wrap_width` would find no width, told without splitting the book.

    `wrap_width` allows at most MAX_BEYOND_SHARE of the non-blank lines beyond the width,
    and lines of BEYOND_ANY_WIDTH characters are beyond every width: a book with more of
    them than that share of all its lines has no width. Books with a paragraph per line
    show as many within their first pages, so the scan stops there.
    """
    lines = text.count("\n") + 1
    if lines < MIN_LINES:
        return False
    enough = int(MAX_BEYOND_SHARE * lines) + 1  # the fewest long lines that rule a width out
    long_lines = itertools.islice(_LONG_LINE.finditer(text), enough)
    return sum(1 for _ in long_lines) < enough


_CJK_SAMPLE_CHARS = 20_000


def _mostly_cjk(text: str) -> bool:
    """Whether the book's opening is in CJK script, by `detect_language`'s script test
    (ideographs outnumber Latin letters / 4): such a book is wrapped at any character,
    so a line end there is no evidence of a space, even between two Latin letters
    (`www.shu` / `yaya.com` is one address)."""
    sample = text[:_CJK_SAMPLE_CHARS]
    return count_ideographs(sample) * 4 > count_latin_letters(sample)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _is_cjk(char: str) -> bool:
    return char >= "\u2e80" and _CJK.match(char) is not None


class _Joiner:
    """Decides, for two adjacent lines, whether and how they join."""

    def __init__(
        self, text: str, width: int, cjk: bool | None = None, spikes: tuple[int, ...] = ()
    ) -> None:
        self.text = text
        self.width = width
        self.cjk = _mostly_cjk(text) if cjk is None else cjk
        self.spikes = spikes  # a CJK book's other wrap widths (`cjk_wrap`)
        self._vocabulary: set[str] | None = None
        self._dash_spacing: dict[tuple[str, bool], bool] = {}

    def vocabulary(self) -> set[str]:
        """The book's words (lowercase), hyphenated compounds whole; the halves of words
        broken at a line end are no evidence of themselves and are left out."""
        if self._vocabulary is None:  # built only for books with hyphenated line ends
            unbroken = _BROKEN_WORD.sub(" ", self.text)
            self._vocabulary = {w.lower() for w in _WORD.findall(unbroken)}
        return self._vocabulary

    def dash_takes_space(self, dash: str, before: bool = False) -> bool:
        """Whether the book mostly writes `dash` with a space after it (`G—— entered`),
        or with `before`, with a space before it (`the ----shire`)."""
        key = (dash, before)
        if key not in self._dash_spacing:
            if before:
                spaced = self.text.count(" " + dash)
                glued = len(re.findall(r"[A-Za-z]" + re.escape(dash), self.text))
            else:
                spaced = self.text.count(dash + " ")
                glued = len(re.findall(re.escape(dash) + r"[A-Za-z]", self.text))
            self._dash_spacing[key] = spaced > glued
        return self._dash_spacing[key]

    def full(self, line: str, following: str, above: str | None = None) -> bool:
        """The line reaches the wrap width, or the next line's first word would not fit
        (`above`: the line above it, for a CJK book's other widths)."""
        # A mostly-CJK book wraps at any character: a line is full by its length alone,
        # whatever it ends with (`。”` closes many a paragraph's short last line).
        if self.cjk or _is_cjk(line[-1]):
            return len(line) >= self.width - 2 or cut_inside_sentence(line, self.spikes, above)
        if len(line) >= self.width * 0.75:
            return True
        next_word = following.split(maxsplit=1)[0]
        return len(line) + 1 + len(next_word) > self.width

    def joins(
        self, upper: str, lower: str, upper_starts_paragraph: bool, above: str | None = None
    ) -> bool:
        """Whether `lower` continues `upper`'s paragraph (structure is checked apart;
        `above`: the line above `upper`)."""
        if not upper.strip() or not lower.strip() or not self.full(upper, lower, above):
            return False
        upper_indent, lower_indent = _indent(upper), _indent(lower)
        if lower_indent > upper_indent or upper_indent > MAX_INDENT:
            return False
        if lower_indent < upper_indent and not upper_starts_paragraph:
            return False
        # Indented lines ending in punctuation, the next one capitalised: verse.
        return not (upper_indent and _VERSE_BREAK.search(upper) and lower.lstrip()[:1].isupper())

    def separator(self, upper: str, lower: str) -> tuple[str, str]:
        """(what replaces the line end, the upper line possibly without its hyphen)."""
        head = lower.lstrip()
        if self.cjk or (_is_cjk(upper[-1]) and _is_cjk(head[0])):
            return "", upper
        if upper[-1] in _DASH_CHARS or head[0] in _DASH_CHARS:
            dash = next((d for d in _DASHES if upper.endswith(d)), None)
            if dash is not None:
                return (" " if self.dash_takes_space(dash) else ""), upper
            # A line opening with a dash: the space the book writes before that dash run
            # (the whole run: `----shire` is not the `--` of `word--word`).
            opening = _DASH_RUN.match(head)
            if opening is not None and opening.group().startswith(_DASHES):
                spaced = self.dash_takes_space(opening.group(), before=True)
                return (" " if spaced else ""), upper
        if not upper.endswith("-"):
            return " ", upper
        tail = _TAIL_WORD.search(upper)
        first = _HEAD_WORD.match(head)
        if tail is not None and first is not None:
            joined = (tail.group(1) + first.group()).lower()
            hyphenated = f"{tail.group(1)}-{first.group()}".lower()
            words = self.vocabulary()
            if hyphenated in words:
                return "", upper
            if joined in words:
                return "", upper[:-1]
            # Neither spelling elsewhere: a compound joins two words of the book
            # (`river-⏎bank`); a word a typesetter broke does not (`holi-⏎day`).
            if tail.group(1).lower() in words and first.group().lower() in words:
                return "", upper
            return "", upper[:-1]
        return " ", upper


def _starts_entry(line: str, heading: str) -> bool:
    """Whether `line`, right below the full heading line `heading`, is structure of its
    own rather than the rest of the heading's title.

    A title's last word may be a heading keyword (`A Caucus-Race and a Long` / `Tale`):
    a lone word is structure only as a roman numeral. A title in capitals goes on in
    capitals (`THE BOSCOMBE VALLEY` / `MYSTERY`): there a capitals line is no title of
    its own.
    """
    if _LONE_WORD.match(line) is not None:
        return _LONE_ROMAN.match(line) is not None
    if is_heading_line(line):
        return True
    return is_structure_line(line) and not (heading.isupper() and is_title_line(line))


def _wrapped_heading_tail(lines: list[str], index: int, joiner: _Joiner) -> int:
    """How many lines after the heading `lines[index]` are the rest of its title.

    A title too long for the wrap width goes on over more lines
    (`Chapter 61. How a Gardener May Get Rid of the Dormice that Eat His` / `Peaches`).
    The heading line must be full, and it and the lines after it, up to a blank line, a
    structure line or the end of the book, must be no longer joined than a title can be
    (MAX_WRAPPED_TITLE_CHARS): a heading followed by a paragraph is not joined to it.
    In a book without blank lines the title may also end at a line more indented than
    the one above it (a paragraph's first line); the lines before it must then read as a
    title (capitalised words), not as a paragraph's short first line.
    """
    heading = lines[index]
    tail, length = 0, len(heading.strip())
    above = heading
    for line in lines[index + 1 :]:
        if not line.strip() or _starts_entry(line, heading):
            break
        if _indent(line) > _indent(above):
            if not all(map(_capitalised, lines[index + 1 : index + 1 + tail])):
                return 0
            break
        above = line
        tail, length = tail + 1, length + 1 + len(line.strip())
        if length > MAX_WRAPPED_TITLE_CHARS:
            return 0  # longer than any title: a paragraph follows the heading
    if not tail or not joiner.joins(heading, lines[index + 1], True):
        return 0
    return tail


_LONG_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]{3,}")


def _capitalised(line: str) -> bool:
    """Whether the words of four letters or more on `line` mostly start with a capital
    (`True Pictures of Whaling Scenes.`; not `Then the old man sang to the dog`)."""
    words = _LONG_WORD.findall(line)
    return sum(word[0].isupper() for word in words) * 2 > len(words) if words else True


INDENTS = (" ", "\t", "\u3000")  # what a paragraph's indented first line opens with


def wrapped_continuation(lines: list[str], index: int, width: int | None) -> list[int]:
    """Indexes of the lines below `lines[index]` that are the rest of it, cut by a
    fixed-width wrap: `lines[index]` opens a paragraph (indented) at the full `width`,
    and the lines below it sit at the margin, as a wrapped paragraph's next lines do
    (each full but the last). A rule that removes a line whole takes these with it: a
    notice longer than the wrap (`本站长期招收…，点此察` / `看详情！`) matches by its first
    piece alone."""
    pieces: list[int] = []
    if width is None or not lines[index].startswith(INDENTS):
        return pieces
    while len(lines[index]) >= width - 2 and index + 1 < len(lines):
        below = lines[index + 1]
        if not below.strip() or below.startswith(INDENTS) or is_structure_line(below):
            break
        index += 1
        pieces.append(index)
    return pieces


def unwrap_paragraphs(text: str) -> RuleOutcome:
    """Join hard-wrapped lines; unchanged text when the book is not hard-wrapped."""
    cjk = _mostly_cjk(text)
    if not cjk and not may_be_hard_wrapped(text):  # most books, told before splitting
        return RuleOutcome(text, 0)
    lines = text.split("\n")
    width = wrap_width(lines)
    # A CJK book may be cut at several widths (chapter by chapter): each is a spike of
    # its line lengths, and a line there that ends inside a sentence is joined.
    # Headings are not counted: a book's headings, all one length and ending in no stop
    # (`第一回 宴桃园豪杰三结义 斩黄巾英雄首立功`), are a spike of their own and no wrap.
    spikes = spike_widths([ln for ln in lines if not is_structure_line(ln)]) if cjk else ()
    if width is None:
        if not spikes:
            return RuleOutcome(text, 0)
        width = BEYOND_ANY_WIDTH  # no single width: the spikes alone decide
    joiner = _Joiner(text, width, cjk, spikes)
    out: list[str] = []
    pieces: list[str] = []  # the output line being built, joined lines as pieces
    examples: list[str] = []
    edits: list[Edit] = []  # (line end [+ hyphen] + next line's indent) -> separator
    count = 0
    offset = 0  # offset of lines[i] in text
    starts_paragraph = True
    previous_is_structure = True
    heading_tail = 0  # lines still to join to a wrapped heading above them
    for index, line in enumerate(lines):
        previous = lines[index - 1] if index else ""
        is_structure = is_structure_line(line)
        joins = heading_tail > 0 or not (is_structure or previous_is_structure)
        if heading_tail > 0:
            heading_tail -= 1
        elif is_structure and is_heading_line(line):
            heading_tail = _wrapped_heading_tail(lines, index, joiner)
        previous_is_structure = is_structure
        above = lines[index - 2] if index > 1 else None
        if joins and joiner.joins(previous, line, starts_paragraph, above):
            separator, upper = joiner.separator(previous, line)
            dropped = len(previous) - len(upper)  # a typesetter's hyphen, or nothing
            start, end = offset - 1 - dropped, offset + _indent(line)
            edits.append((start, end, separator))
            if len(examples) < MAX_EXAMPLES:
                examples.append(format_example(text, start, end, separator))
            if dropped:
                pieces[-1] = pieces[-1][:-dropped]
            pieces += (separator, line.lstrip(" "))
            count += 1
            starts_paragraph = False
        else:
            if pieces:
                out.append("".join(pieces))
            pieces = [line]
            starts_paragraph = True
        offset += len(line) + 1
    out.append("".join(pieces))
    if not count:
        return RuleOutcome(text, 0)
    return RuleOutcome("\n".join(out), count, examples, edits=tuple(edits))


@dataclass(frozen=True)
class UnwrapRule:
    """The unwrapping as a `TextRule` (one change per joined line)."""

    name: str = "common/unwrap-paragraphs"
    description: str = (
        "Hard-wrapped lines (the book's own wrap width, found from its line lengths) are "
        "rejoined into paragraphs; headings, blank-line breaks, verse, lists and contents "
        "lines are never joined. Off when cleaning.unwrap_paragraphs is false."
    )
    languages: tuple[str, ...] = ()
    whitespace_only: bool = False  # a typesetter's hyphen may go too

    def apply(self, text: str) -> RuleOutcome:
        """Rejoin the wrapped lines of `text`."""
        return unwrap_paragraphs(text)


UNWRAP_PARAGRAPHS = UnwrapRule()
