"""Line signatures and the per-book line statistics that learned boilerplate is judged on.

A line's signature is the line stripped, with whitespace runs folded to one space and
digit runs (ASCII and full-width) folded to one ``0``: `- 12 -` and `- 13 -` share
`- 0 -`, and a running header that varies only in its page number is one line.

Cost: a book is split once and its distinct stripped lines counted with `Counter` (C
speed); only distinct short lines are folded in Python, and only lines whose signature
recurs are located (one membership test per line). No regex runs per line.

Chapter positions: cleaning runs before chapter detection, so heading positions come
from a cheap candidate pass (`heading_lines`): the chapter detector's own zh heading
regex, or its English candidate finder. Detection proper (sequence checks, tables of
contents) runs later on the cleaned text.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from lengthwise.builders.chapters.candidates_en import find_en_candidates
from lengthwise.builders.chapters.candidates_zh import HEADING_RE

_FOLD_DIGITS = str.maketrans({c: "0" for c in "0123456789０１２３４５６７８９"})
_ZERO_RUN = re.compile("0{2,}")
# A line ending with one of these continues or ends a sentence: narrative, never learned
# (unless it carries a web address). Covers dialogue, poems and chapter formulae such as
# 且听下回分解。 as well as wrapped English prose.
SENTENCE_END = frozenset("。！？…”」』’\"'.!?:：,，;；、—")
# Sentence punctuation inside a Chinese line: prose, not a header or a credit.
ZH_SENTENCE_INNER = frozenset("，。！？；")
MAX_HEADING_PREFIX = 8
WEB_MARKS = ("www", "http", ".com", ".net", ".org", ".cn", ".cc", "@", "ｗｗｗ", ".info")


def signature(line: str) -> str:
    """`line` stripped, whitespace runs -> one space, digit runs -> one 0."""
    folded = " ".join(line.split())
    digits_folded = folded.translate(_FOLD_DIGITS)
    if digits_folded is folded or digits_folded == folded:
        return folded
    return _ZERO_RUN.sub("0", digits_folded)


def has_web_mark(line: str) -> bool:
    lowered = line.lower()
    return any(mark in lowered for mark in WEB_MARKS)


def letters(line: str) -> int:
    """Letters and CJK characters in `line` (digits, punctuation and spaces excluded)."""
    return sum(1 for char in line if char.isalpha())


def looks_like_prose(line: str) -> bool:
    """True for narrative-shaped lines: they end a sentence, or hold zh sentence stops."""
    if has_web_mark(line):
        return False
    if line[-1:] in SENTENCE_END:
        return True
    return not ZH_SENTENCE_INNER.isdisjoint(line)


@dataclass
class SignatureStats:
    """Where one signature occurs in a book."""

    count: int = 0
    forms: set[str] = field(default_factory=set)  # distinct stripped lines with it
    lines: list[int] = field(default_factory=list)  # line indexes of its occurrences
    edge: int = 0  # occurrences among the first/last lines of a chapter or of the book
    before_heading: int = 0  # occurrences as the last non-blank line before a heading
    heading: bool = False  # some occurrence is a heading line itself


@dataclass
class BookLines:
    """A book split into lines, with line offsets and heading line indexes."""

    lines: list[str]
    stripped: list[str]
    starts: list[int]  # offset of each line's first character
    headings: list[int]  # sorted line indexes of heading candidates
    prefixes: dict[int, str]  # heading line -> what precedes the heading on it ("" mostly)


def split_book(text: str, language: str) -> BookLines:
    lines = text.split("\n")
    starts = [0, *itertools.accumulate(len(line) + 1 for line in lines[:-1])]
    stripped = list(map(str.strip, lines))
    prefixes = heading_lines(text, language, starts)
    return BookLines(lines, stripped, starts, sorted(prefixes), prefixes)


def heading_lines(text: str, language: str, starts: list[int]) -> dict[int, str]:
    """Line index -> text before the heading, for lines holding a chapter heading
    candidate at their start or after a prefix of at most 8 characters (`正文 第一章`)."""
    if language.startswith("zh"):
        offsets: Iterable[int] = (m.start() for m in HEADING_RE.finditer(text))
    elif language.startswith("en"):
        offsets = (c.start for c in find_en_candidates(text) if c.strong)
    else:
        return {}
    found: dict[int, str] = {}
    for offset in offsets:
        line = bisect.bisect_right(starts, offset) - 1
        prefix = text[starts[line] : offset].strip()
        if len(prefix) <= MAX_HEADING_PREFIX and line not in found:
            found[line] = prefix
    return found


def distinct_signatures(stripped: Iterable[str], max_chars: int) -> dict[str, SignatureStats]:
    """Signature -> stats (count and forms) for non-blank lines up to `max_chars`."""
    stats: dict[str, SignatureStats] = {}
    for line, count in Counter(stripped).items():
        if not line or len(line) > max_chars:
            continue
        entry = stats.setdefault(signature(line), SignatureStats())
        entry.count += count
        entry.forms.add(line)
    return stats


def locate(book: BookLines, stats: dict[str, SignatureStats], edge_lines: int) -> None:
    """Fill in line indexes and positions of the signatures in `stats` (in place)."""
    form_to_sig = {form: sig for sig, entry in stats.items() for form in entry.forms}
    nonblank_before: dict[int, int] = {}  # heading line -> last non-blank line above it
    edge: set[int] = set()
    heading_set = set(book.headings)
    bounds = [-1, *book.headings, len(book.lines)]
    for left, right in itertools.pairwise(bounds):
        inside = _nonblank_between(book.stripped, left, right, edge_lines)
        edge.update(inside)
        if right < len(book.lines) and inside:
            nonblank_before[right] = max(inside)
    before_heading = set(nonblank_before.values())
    for index, line in enumerate(book.stripped):
        sig = form_to_sig.get(line)
        if sig is None:
            continue
        entry = stats[sig]
        entry.lines.append(index)
        entry.edge += index in edge
        entry.before_heading += index in before_heading
        entry.heading = entry.heading or index in heading_set


def _nonblank_between(stripped: list[str], left: int, right: int, edge_lines: int) -> list[int]:
    """The first and last `edge_lines` non-blank lines strictly between two headings."""
    head: list[int] = []
    index = left + 1
    while index < right and len(head) < edge_lines:
        if stripped[index]:
            head.append(index)
        index += 1
    tail: list[int] = []
    index = right - 1
    while index > left and len(tail) < edge_lines:
        if stripped[index]:
            tail.append(index)
        index -= 1
    return sorted(set(head) | set(tail))


def book_signatures(text: str, max_chars: int) -> list[str]:
    """The distinct signatures a book could share with other books as boilerplate:
    short, not prose-shaped, with at least two letters (for corpus-level learning)."""
    found = []
    for sig in distinct_signatures(map(str.strip, text.split("\n")), max_chars):
        if letters(sig) >= 2 and not looks_like_prose(sig):
            found.append(sig)
    return sorted(found)
