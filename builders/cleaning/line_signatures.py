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
import operator
import re
from collections import Counter
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

from lengthwise.builders.chapters.candidates_en import find_en_candidates
from lengthwise.builders.chapters.candidates_zh import HEADING_RE

_DIGIT_RUN = re.compile("[0-9０-９]+")
_SPACE_RUN = re.compile(" {2,}")
# A line ending with one of these continues or ends a sentence: narrative, never learned
# (unless it carries a web address). Covers dialogue, poems and chapter formulae such as
# 且听下回分解。 as well as wrapped English prose.
SENTENCE_END = frozenset("。！？…”」』’\"'.!?:：,，;；、—")
# Sentence punctuation inside a Chinese line: prose, not a header or a credit.
ZH_SENTENCE_INNER = frozenset("，。！？；")
MAX_HEADING_PREFIX = 8
MAX_HEADING_LINE = 60
WEB_MARKS = ("www", "http", ".com", ".net", ".org", ".cn", ".cc", "@", "ｗｗｗ", ".info")


def signature(line: str) -> str:
    """`line` stripped, whitespace runs -> one space, digit runs -> one 0."""
    return signatures([line.strip()])[0] if line.strip() else ""


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
    """A book split into lines, with line offsets, heading lines and signatures."""

    lines: list[str]
    stripped: list[str]
    starts: list[int]  # offset of each line's first character
    headings: list[int]  # sorted line indexes of heading candidates
    prefixes: dict[int, str]  # heading line -> what precedes the heading on it ("" mostly)
    counts: Counter[str]  # stripped line -> occurrences
    sig_of: dict[str, str]  # stripped line (up to max_chars) -> its signature


def split_book(text: str, max_chars: int) -> BookLines:
    """Lines, stripped lines, their counts and signatures (headings: `add_headings`)."""
    lines = text.split("\n")
    lengths = list(itertools.accumulate(map(len, lines)))
    # starts[i] = characters of the lines above + their newlines; all in C.
    starts = list(map(operator.add, [0, *lengths[:-1]], range(len(lines))))
    stripped = list(map(str.strip, lines))
    counts = Counter(stripped)
    forms = [form for form in counts if 0 < len(form) <= max_chars]
    sig_of = dict(zip(forms, signatures(forms), strict=True))
    return BookLines(lines, stripped, starts, [], {}, counts, sig_of)


def add_headings(book: BookLines, text: str, language: str) -> None:
    """Find the heading lines of `book` (the chapter detector's candidate pass)."""
    book.prefixes = heading_lines(text, language, book.starts)
    book.headings = sorted(book.prefixes)


_ODD_SPACES = "\t\r\f\v\xa0\u3000\u202f\u205f" + "".join(map(chr, range(0x2000, 0x200B)))
_FULLWIDTH_DIGITS = "０１２３４５６７８９"
FOLD_MAX_CHARS = 60


def signatures(forms: list[str]) -> list[str]:
    """`signature` of each stripped line in `forms`, folded in bulk on the joined text.

    Only lines up to 60 characters are folded (page markers, headers with a page number
    are short); a longer line is its own signature. A regex over non-ASCII text costs
    ~15 ns a character, so the short lines are joined and `in` checks (C) decide which
    of a few C passes run at all.
    """
    short = [i for i, form in enumerate(forms) if len(form) <= FOLD_MAX_CHARS]
    joined = "\n".join(forms[i] for i in short)
    original = joined
    if any(digit in joined for digit in "0123456789") or any(
        digit in joined for digit in _FULLWIDTH_DIGITS
    ):
        joined = _DIGIT_RUN.sub("0", joined)
    for space in _ODD_SPACES:
        if space in joined:
            joined = joined.replace(space, " ")
    if "  " in joined:
        joined = _SPACE_RUN.sub(" ", joined)
    result = list(forms)
    if joined is not original and short:
        for i, folded in zip(short, joined.split("\n"), strict=True):
            result[i] = folded
    return result


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
        if len(prefix) > MAX_HEADING_PREFIX or line in found:
            continue
        line_end = text.find("\n", offset)
        rest = text[offset : len(text) if line_end < 0 else line_end]
        # `这是第一章的故事，…` is a sentence mentioning a chapter, not a heading line.
        if len(rest) <= MAX_HEADING_LINE and ZH_SENTENCE_INNER.isdisjoint(rest):
            found[line] = prefix
    return found


def recurring(
    book: BookLines, min_count: int, also: Collection[str] = ()
) -> dict[str, SignatureStats]:
    """Stats for signatures recurring `min_count` times, or listed in `also`."""
    totals: Counter[str] = Counter()
    for form, sig in book.sig_of.items():
        totals[sig] += book.counts[form]
    wanted = {sig for sig, count in totals.items() if count >= min_count}
    wanted.update(sig for sig in also if sig in totals)
    return {sig: SignatureStats(count=totals[sig]) for sig in wanted}


def locate(book: BookLines, stats: dict[str, SignatureStats], edge_lines: int) -> None:
    """Fill in forms, line indexes and positions of the signatures in `stats` (in place)."""
    form_sig = {form: sig for form, sig in book.sig_of.items() if sig in stats}
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
        sig = form_sig.get(line)
        if sig is None:
            continue
        entry = stats[sig]
        entry.lines.append(index)
        entry.forms.add(line)
        entry.edge += index in edge
        entry.before_heading += index in before_heading
        entry.heading = entry.heading or index in heading_set


def _nonblank_between(sigs: list[str], left: int, right: int, edge_lines: int) -> list[int]:
    """The first and last `edge_lines` non-blank lines strictly between two headings."""
    head: list[int] = []
    index = left + 1
    while index < right and len(head) < edge_lines:
        if sigs[index]:
            head.append(index)
        index += 1
    tail: list[int] = []
    index = right - 1
    while index > left and len(tail) < edge_lines:
        if sigs[index]:
            tail.append(index)
        index -= 1
    return sorted(set(head) | set(tail))


BOOK_EDGE_LINES = 50  # non-blank lines at each end of a book where once-per-book lines sit


def book_signatures(text: str, max_chars: int) -> list[str]:
    """The signatures this book could share with other books as boilerplate: lines that
    recur in it or sit among its first/last 50 non-blank lines; short, not prose-shaped,
    with two letters or more. Workers send these to the parent for `corpus_boilerplate`."""
    stripped = list(map(str.strip, text.split("\n")))
    counts = Counter(stripped)
    nonblank = [line for line in stripped if line]
    ends = {*nonblank[:BOOK_EDGE_LINES], *nonblank[-BOOK_EDGE_LINES:]}
    forms = [
        form
        for form, count in counts.items()
        if (count >= 2 or form in ends) and 0 < len(form) <= max_chars
    ]
    return sorted(
        {sig for sig in signatures(forms) if not looks_like_prose(sig) and letters(sig) >= 2}
    )


def corpus_boilerplate(per_book: Iterable[Iterable[str]], min_books: int) -> frozenset[str]:
    """Signatures found in at least `min_books` books (each book's list counted once)."""
    books = Counter(sig for signatures in per_book for sig in set(signatures))
    return frozenset(sig for sig, count in books.items() if count >= min_books)
