"""Line signatures and the per-book line statistics that learned boilerplate is judged on.

A line's signature is the line stripped, with whitespace runs folded to one space and
digit runs (ASCII and full-width) folded to one ``0``: `- 12 -` and `- 13 -` share
`- 0 -`, and a running header that varies only in its page number is one line.

Cost: a book is split and stripped once (C); one length test per line drops blank lines and
lines longer than `max_chars` (paragraphs) before anything is hashed, so `Counter` and the
folding see only the short lines; signatures are folded in bulk on the joined short lines,
and only lines whose signature recurs are located (picked by C-level membership tests). No
regex runs per line; digit runs are folded by regex only on the lines `str.find` shows hold
a digit; line offsets are computed only when learned lines are located. Heading lines are
keyed by their start offset (`rfind`), so a book with nothing to locate never indexes lines.

Chapter positions: cleaning runs before chapter detection, so heading positions come
from a cheap candidate pass (`heading_lines`): the chapter detector's own zh heading
regex, or its English candidate finder. Detection proper (sequence checks, tables of
contents) runs later on the cleaned text.
"""

from __future__ import annotations

import bisect
import functools
import heapq
import itertools
import operator
import re
from collections import Counter
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass, field

from lengthwise.builders.chapters.candidates_en import find_en_candidates
from lengthwise.builders.chapters.candidates_zh import HEADING_BY_PREFIX
from lengthwise.builders.chapters.layout import Layout
from lengthwise.builders.cleaning.site_terms import has_site_term
from lengthwise.text.numerals import ALL_DIGITS, DIGIT_CLASS

DIGIT_RUN = re.compile(f"[{DIGIT_CLASS}]+")
# Two spaces, then more: a literal start lets sre jump to "  " (~10x faster than ` {2,}`).
_SPACE_RUN = re.compile("  +")
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
    """A book split into lines, with signatures; offsets and headings: `add_headings`."""

    text: str
    lines: list[str]
    stripped: list[str]
    forms: Counter[str]  # non-blank stripped line up to max_chars -> occurrences
    folded: dict[str, str]  # those of `forms` whose signature differs -> signature
    totals: Counter[str]  # signature -> occurrences (among lines up to max_chars)
    prefixes: dict[int, str] = field(default_factory=dict)  # heading line's offset -> text before
    starts: list[int] = field(default_factory=list)  # offset of each line's first character
    headings: list[int] = field(default_factory=list)  # sorted line indexes of headings

    @functools.cached_property
    def layout(self) -> Layout:
        """How the book sets paragraphs apart (English heading strength)."""
        return Layout.of(self.text)

    @property
    def nonblank(self) -> int:
        """Lines that are not blank (counted when asked: most books never ask)."""
        return len(self.stripped) - self.stripped.count("")


def split_book(text: str, max_chars: int) -> BookLines:
    """Lines, stripped lines and the signatures of the short ones, with their counts."""
    lines = text.split("\n")
    stripped = list(map(str.strip, lines))
    forms = Counter(short_lines(stripped, max_chars))
    folded = folded_forms(list(forms))
    totals = forms.copy()
    # A folded form is never a signature itself (folding again would change it, and
    # folding is idempotent), so moving its count leaves it at zero.
    for form, sig in folded.items():
        totals[sig] += totals.pop(form)
    return BookLines(text, lines, stripped, forms, folded, totals)


def forms_of(book: BookLines, sigs: Collection[str]) -> dict[str, str]:
    """Stripped line -> signature, for the lines of `book` whose signature is in `sigs`."""
    form_sig = {form: sig for form, sig in book.folded.items() if sig in sigs}
    # An unfolded form is its own signature.
    form_sig.update((sig, sig) for sig in sigs if sig in book.forms and sig not in book.folded)
    return form_sig


def short_lines(stripped: list[str], max_chars: int) -> list[str]:
    """The non-blank lines of `stripped` up to `max_chars` long, in order."""
    return [line for line in stripped if line and len(line) <= max_chars]


def add_headings(book: BookLines, text: str, language: str) -> None:
    """The heading lines of `book` by offset (the chapter detector's candidate pass)."""
    book.prefixes = heading_lines(text, language)


def add_line_starts(book: BookLines) -> None:
    """Line offsets and heading line indexes (needed only to locate learned lines)."""
    # starts[i] = characters of the lines above + their newlines; all in C.
    with_newline = map(operator.add, map(len, book.lines), itertools.repeat(1))
    book.starts = list(itertools.accumulate(with_newline, initial=0))
    book.starts.pop()  # where a line after the last one would start
    book.headings = [bisect.bisect_left(book.starts, start) for start in sorted(book.prefixes)]


_ODD_SPACES = "\t\r\f\v\xa0\u3000\u202f\u205f" + "".join(map(chr, range(0x2000, 0x200B)))
_ASCII_ODD_SPACES = "\t\r\f\v"
_DIGITS = ALL_DIGITS
# A digit found by `str.find` costs about as much Python work as the regex spends on this
# many characters; above that share of digits one regex pass over everything is cheaper.
_FIND_PER_DIGIT_OVER_REGEX_PER_CHAR = 100
FOLD_MAX_CHARS = 60


def signatures(forms: list[str]) -> list[str]:
    """`signature` of each stripped line in `forms` (see `folded_forms`)."""
    folded = folded_forms(forms)
    return list(map(folded.get, forms, forms))


def folded_forms(forms: list[str]) -> dict[str, str]:
    """The stripped lines of `forms` whose `signature` differs from them -> signature,
    folded in bulk on the joined text.

    Only lines up to 60 characters are folded (page markers, headers with a page number
    are short); a longer line is its own signature. A regex over non-ASCII text costs
    ~15 ns a character, so the short lines are joined and `in` checks (C) decide which
    of a few C passes run at all.
    """
    short = list(itertools.compress(forms, map(FOLD_MAX_CHARS.__ge__, map(len, forms))))
    joined = "\n".join(short)
    original = joined
    joined = fold_digits(joined)
    # (an ASCII text, a flag CPython keeps, holds none of the non-ASCII spaces)
    for space in _ASCII_ODD_SPACES if joined.isascii() else _ODD_SPACES:
        if space in joined:
            joined = joined.replace(space, " ")
    if "  " in joined:
        joined = _SPACE_RUN.sub(" ", joined)
    if joined is original or not short:
        return {}
    folded = joined.split("\n")
    # Pairs that changed, picked in C; a long line is its own signature.
    changed = map(operator.ne, short, folded)
    return dict(itertools.compress(zip(short, folded, strict=True), changed))


def fold_digits(joined: str) -> str:
    """`DIGIT_RUN.sub("0", joined)` for lines joined by newlines, the regex run only on
    the lines holding a digit when those are few: a character-class regex costs ~15 ns a
    character over non-ASCII text, `str.find` for each digit (C) a fraction of that."""
    present = [digit for digit in _DIGITS if digit in joined]
    if not present:
        return joined
    digits = sum(map(joined.count, present))
    if digits * _FIND_PER_DIGIT_OVER_REGEX_PER_CHAR > len(joined):
        return DIGIT_RUN.sub("0", joined)
    with_digits: dict[int, int] = {}  # start -> end of each line holding a digit
    for digit in present:
        at = joined.find(digit)
        while at >= 0:
            start = joined.rfind("\n", 0, at) + 1
            end = joined.find("\n", at)
            end = len(joined) if end < 0 else end
            with_digits[start] = end
            at = joined.find(digit, end)
    pieces: list[str] = []
    done = 0
    for start, end in sorted(with_digits.items()):
        pieces += [joined[done:start], DIGIT_RUN.sub("0", joined[start:end])]
        done = end
    pieces.append(joined[done:])
    return "".join(pieces)


def heading_lines(text: str, language: str, layout: Layout | None = None) -> dict[int, str]:
    """Line start offset -> text before the heading, for lines holding a chapter heading
    candidate at their start or after a prefix of at most 8 characters (`正文 第一章`).
    `layout`: the whole book's, when `text` is a piece of it (English headings)."""
    if language.startswith("zh"):
        offsets: Iterable[int] = zh_heading_offsets(text)
    elif language.startswith("en"):
        offsets = (c.start for c in find_en_candidates(text, layout) if c.strong)
    else:
        return {}
    found: dict[int, str] = {}
    for offset in offsets:
        line = text.rfind("\n", 0, offset) + 1
        prefix = text[line:offset].strip()
        if len(prefix) > MAX_HEADING_PREFIX or line in found:
            continue
        line_end = text.find("\n", offset)
        rest = text[offset : len(text) if line_end < 0 else line_end]
        # `这是第一章的故事，…` is a sentence mentioning a chapter, not a heading line.
        if len(rest) <= MAX_HEADING_LINE and ZH_SENTENCE_INNER.isdisjoint(rest):
            found[line] = prefix
    return found


def zh_heading_offsets(text: str) -> Iterator[int]:
    """Offsets of `HEADING_RE` matches in `text`, in order (merged from the detector's
    one-scan-per-first-character patterns, `HEADING_BY_PREFIX`)."""
    by_char = ((m.start() for m in pattern.finditer(text)) for pattern in HEADING_BY_PREFIX)
    return heapq.merge(*by_char)


def recurring(
    book: BookLines, min_count: int, also: Collection[str] = ()
) -> dict[str, SignatureStats]:
    """Stats for signatures recurring `min_count` times, or listed in `also`."""
    totals = book.totals
    wanted = {sig for sig, count in totals.items() if count >= min_count}
    wanted.update(sig for sig in also if sig in totals)
    return {sig: SignatureStats(count=totals[sig]) for sig in wanted}


def first_lines(book: BookLines, sigs: Collection[str]) -> dict[str, int]:
    """The index of the first line with each signature in `sigs` (all must occur)."""
    form_sig = forms_of(book, sigs)
    first: dict[str, int] = {}
    # Only the lines with a wanted signature, picked in C, until each has been seen.
    for index in itertools.compress(itertools.count(), map(form_sig.__contains__, book.stripped)):
        first.setdefault(form_sig[book.stripped[index]], index)
        if len(first) == len(sigs):
            break
    return first


def is_heading_line(book: BookLines, index: int, language: str) -> bool:
    """Whether line `index` is one of `heading_lines` of the whole book, decided on the
    line and the one above it: the candidate finders match a line on its own, and a
    candidate's strength (a blank line above it, or in a book without blank lines the
    end of a paragraph: the whole book's `layout`) looks one line up, no further."""
    above = max(0, index - 1)
    window = "\n".join(book.lines[above : index + 1])
    found = heading_lines(window, language, book.layout)
    return (index - above) * (len(book.lines[above]) + 1) in found


def locate(book: BookLines, stats: dict[str, SignatureStats], edge_lines: int) -> None:
    """Fill in forms, line indexes and positions of the signatures in `stats` (in place)."""
    if not stats:
        return
    form_sig = forms_of(book, stats)
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
    # Only the lines with a wanted signature, picked in C.
    found = map(form_sig.__contains__, book.stripped)
    for index in itertools.compress(itertools.count(), found):
        line = book.stripped[index]
        entry = stats[form_sig[line]]
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
    counts = Counter(short_lines(stripped, max_chars))
    repeated = itertools.compress(counts, map((2).__le__, counts.values()))  # in C
    first = itertools.islice(filter(None, stripped), BOOK_EDGE_LINES)
    last = itertools.islice(filter(None, reversed(stripped)), BOOK_EDGE_LINES)
    ends = {form for form in itertools.chain(first, last) if len(form) <= max_chars}
    forms = [*ends.union(repeated)]
    return sorted(
        {
            sig
            for sig in signatures(forms)
            if letters(sig) >= 2 and (not looks_like_prose(sig) or has_site_term(sig))
        }
    )


def corpus_boilerplate(per_book: Iterable[Iterable[str]], min_books: int) -> frozenset[str]:
    """Signatures found in at least `min_books` books (each book's list counted once)."""
    books = Counter(sig for signatures in per_book for sig in set(signatures))
    return frozenset(sig for sig, count in books.items() if count >= min_books)
