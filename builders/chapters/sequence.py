"""Numbering sanity: which numbered headings to believe, and what is missing or doubled.

Within one numbering run (a part, or the whole book) the printed numbers should
increase. We keep the heaviest strictly increasing chain of candidates (a heading on
its own line weighs more than one glued mid-line) and, beyond it, every heading on a
line of its own: an out-of-order or doubled heading that stands alone is a real
problem of the book to report, not something to hide. Glued candidates off the chain
are dropped (a chapter reference in a sentence), and so is a heading that repeats the
previous number with almost no text in between (红楼梦 prints some headings twice).

A number printed again right after itself, with the same title but for a part marker
(`第五回 …（上）` then `…（下）`, `Chapter 5` then `Chapter 5 (continued)`), is one chapter
printed in parts: both are kept as chapters and the number is reported as split, not
as doubled.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from lengthwise.builders.chapters.model import Candidate
from lengthwise.builders.chapters.spans import stripped_length
from lengthwise.text.numerals import SIMPLE_NUMERAL_CHARS, SMALL_ROMAN_CAPITALS

STRONG_WEIGHT = 4  # a heading on a line of its own
WEAK_WEIGHT = 2  # glued after the end of a sentence
UNANCHORED_WEIGHT = 1  # glued with no sentence end before it


def drop_repeated_headings(
    text: str, candidates: list[Candidate], min_chapter_chars: int
) -> list[Candidate]:
    """Drop a heading that repeats the previous heading's number after too little text
    (of the two, the one on a line of its own or after a sentence end is kept)."""
    kept: list[Candidate] = []
    for candidate in candidates:
        previous = kept[-1] if kept else None
        if (
            previous is not None
            and candidate.number is not None
            and candidate.number == previous.number
            and stripped_length(text, previous.end, candidate.start) < min_chapter_chars
        ):
            if _weight(candidate) > _weight(previous):
                kept[-1] = candidate  # `在第三回中…。第三回…`: the reference came first
            continue
        kept.append(candidate)
    return kept


# A numbering that starts again at one is a new run (a second work in the file, an
# omnibus) when the earlier run reached at least this number and the new one continues
# 1, 2, 3 ... for at least this many headings on lines of their own.
RESTART_RUN = 3


def split_at_restarts(
    text: str, candidates: list[Candidate], min_chapter_chars: int
) -> list[list[Candidate]]:
    """`candidates` (one part and family, text order) cut where the numbering starts again
    at one with no part heading: `CHAPTER I`..`XII` of one work, then `CHAPTER I`..`XXXV`
    of the next in the same file. Each piece is checked on its own (as one run, the
    second work's first chapters would be headings inside the first work's last chapter).
    The new run must count up 1, 2, 3 ... in strong headings, each with at least
    `min_chapter_chars` of text: a numbered list or an inner book's sections is not one."""
    pieces: list[list[Candidate]] = [[]]
    highest = 0
    for index, candidate in enumerate(candidates):
        if (
            candidate.number == 1
            and highest >= RESTART_RUN
            and _counts_up_from_one(text, candidates[index:], min_chapter_chars)
        ):
            pieces.append([])
            highest = 0
        pieces[-1].append(candidate)
        highest = max(highest, candidate.number or 0)
    for run, piece in enumerate(pieces):
        for candidate in piece:
            candidate.run = run
    return pieces


def _counts_up_from_one(text: str, candidates: Sequence[Candidate], min_chapter_chars: int) -> bool:
    run = candidates[:RESTART_RUN]
    if len(run) < RESTART_RUN:
        return False
    for expected, (candidate, following) in enumerate(
        zip(run, [*candidates[1:RESTART_RUN], None], strict=True), 1
    ):
        if not candidate.strong or candidate.number != expected:
            return False
        stop = following.start if following is not None else len(text)
        if following is not None and stripped_length(text, candidate.end, stop) < min_chapter_chars:
            return False
    return True


def increasing_chain(candidates: Sequence[Candidate]) -> set[int]:
    """Indexes of the heaviest chain with strictly increasing numbers (O(n log n))."""
    numbered = [(i, c.number) for i, c in enumerate(candidates) if c.number is not None]
    if not numbered:
        return set()
    ranks = {n: r for r, n in enumerate(sorted({n for _, n in numbered}), 1)}
    size = len(ranks)
    tree: list[tuple[int, int]] = [(0, -1)] * (size + 1)  # Fenwick tree of (score, index)
    best: dict[int, tuple[int, int]] = {}
    for i, number in numbered:
        rank = ranks[number]
        prefix, position = (0, -1), rank - 1
        while position > 0:
            if tree[position][0] > prefix[0]:  # the first of equal scores stays
                prefix = tree[position]
            position -= position & -position
        weight = _weight(candidates[i])
        score = prefix[0] + weight
        best[i] = (score, prefix[1])
        position = rank
        while position <= size:
            if score > tree[position][0]:
                tree[position] = (score, i)
            position += position & -position
    end = max(best, key=lambda i: (best[i][0], -i))
    chain: set[int] = set()
    while end >= 0:
        chain.add(end)
        end = best[end][1]
    return chain


def _weight(candidate: Candidate) -> int:
    if candidate.strong:
        return STRONG_WEIGHT
    return WEAK_WEIGHT if candidate.anchored else UNANCHORED_WEIGHT


def believed(candidates: Sequence[Candidate]) -> list[Candidate]:
    """The chain plus standalone headings that fit the numbering; glued ones off it dropped.

    An unanchored candidate (no sentence end before it) must also continue its chain
    neighbours exactly: previous number + 1, and next number - 1. A heading on a line of
    its own off the chain is kept where it may be the book's own misprint: it stands in a
    gap of the chain (Tom Sawyer prints XVI for XXVI) or repeats a neighbour's number.
    Elsewhere it does not continue the book's numbering (`CHAPTER I.` of a book within a
    chapter) and stays in the enclosing chapter's body.
    """
    chain = sorted(increasing_chain(candidates))
    fits: set[int] = set()
    for position, index in enumerate(chain):
        number = candidates[index].number
        assert number is not None
        before = candidates[chain[position - 1]].number if position else None
        after = candidates[chain[position + 1]].number if position + 1 < len(chain) else None
        if candidates[index].anchored or (
            (number - 1 == before or (before is None and number <= 1))
            and (after is None or after == number + 1)
        ):
            fits.add(index)
    return [
        c
        for i, c in enumerate(candidates)
        if i in fits or c.number is None or (c.strong and _fits_around(candidates, chain, i))
    ]


def _fits_around(candidates: Sequence[Candidate], chain: list[int], index: int) -> bool:
    """Whether an off-chain heading stands in a gap of the chain or repeats a neighbour."""
    number = candidates[index].number
    position = bisect.bisect_left(chain, index)
    before = candidates[chain[position - 1]].number if position else None
    after = candidates[chain[position]].number if position < len(chain) else None
    if number in (before, after):
        return True
    low = before if before is not None else 0
    return after is None or after - low > 1


def gaps_of(numbers: Sequence[int]) -> list[tuple[int, int]]:
    """Missing inclusive ranges from 1 (or 0 when printed) up to the largest number."""
    present = sorted(set(numbers))
    if not present:
        return []
    gaps: list[tuple[int, int]] = []
    expected = min(1, present[0])
    for number in present:
        if number > expected:
            gaps.append((expected, number - 1))
        expected = number + 1
    return gaps


def duplicates_of(numbers: Sequence[int]) -> list[int]:
    """Numbers printed more than once, in ascending order."""
    return sorted(n for n, count in Counter(numbers).items() if count > 1)


_MARKER_WORDS = (
    r"上篇|中篇|下篇|[上中下续續]|(?:part|Part|PART)\s+(?:\d{1,2}|["
    + SMALL_ROMAN_CAPITALS
    + r"]{1,4}|[A-Za-z]+)"
    r"|continued|Continued|CONTINUED|concluded|Concluded|CONCLUDED"
)
# A part marker ending a title: bracketed (`（上）`, `(2)`, `(2/3)`, `[II]`), or a marker
# word after a space or separator (`王熙凤 上`, `Chapter 5, Part 2`).
_PART_MARKER = re.compile(
    r"\s*(?:[（(【\[〔]\s*(?P<bracketed>" + _MARKER_WORDS + "|[" + SIMPLE_NUMERAL_CHARS + "]{1,3}"
    r"|\d{1,2}(?:\s*/\s*\d{1,2})?"
    "|["
    + SMALL_ROMAN_CAPITALS
    + r"]{1,4})\s*[）)】\]〕]|(?:^|(?<=[\s,，:：—–-]))(?P<word>"
    + _MARKER_WORDS
    + r"))\s*$"
)


def split_title(title: str | None) -> tuple[str, str | None]:
    """A title without its trailing part marker, and the marker (None when it has none)."""
    title = (title or "").strip()
    match = _PART_MARKER.search(title)
    if match is None:
        return title, None
    marker = match.group("bracketed") or match.group("word")
    return title[: match.start()].rstrip(" \t\u3000,，:：—–-"), marker


_CONTINUATION = {"续", "續", "continued", "concluded"}


def continues_chapter(title: str | None, previous_title: str | None) -> bool:
    """Whether a heading repeating the previous heading's number prints the next part of
    that chapter: the same title but for part markers, which differ, or no title but a
    continuation word (`Chapter 5 (continued)` after `Chapter 5. The Storm`)."""
    base, marker = split_title(title)
    if not base and marker is not None and marker.lower() in _CONTINUATION:
        return True
    previous_base, previous_marker = split_title(previous_title)
    return base == previous_base and marker != previous_marker


@dataclass
class NumberingProblems:
    """Missing number ranges, numbers printed twice, and numbers printed in parts."""

    gaps: list[tuple[int, int]] = field(default_factory=list)
    duplicates: list[int] = field(default_factory=list)
    split: list[int] = field(default_factory=list)


def numbering_problems(
    entries: Sequence[tuple[int | None, str | None, str, str | None]],
) -> NumberingProblems:
    """Gaps, duplicates and split numbers over (number, part, family, title) entries in
    book order.

    When some part starts at or below the previous part's last number, numbering
    restarts per part (War and Peace) and each part is checked on its own; otherwise
    the book is one numbering run. Different keyword families (LETTER before CHAPTER)
    are separate runs. A heading continuing the previous one (`continues_chapter`)
    counts once.
    """
    by_part: dict[str | None, list[int]] = {}
    for number, part, _family, _title in entries:
        if number is not None:
            by_part.setdefault(part, []).append(number)
    runs = list(by_part.values())
    restarts = any(later[0] <= earlier[-1] for earlier, later in itertools.pairwise(runs))
    segments: dict[tuple[str | None, str], list[int]] = {}
    last_title: dict[tuple[str | None, str], str | None] = {}
    split: set[int] = set()
    for number, part, family, title in entries:
        if number is None:
            continue
        key = (part if restarts else None, family)
        numbers = segments.setdefault(key, [])
        if numbers and numbers[-1] == number and continues_chapter(title, last_title[key]):
            split.add(number)
        else:
            numbers.append(number)
        last_title[key] = title
    problems = NumberingProblems(split=sorted(split))
    duplicates: set[int] = set()
    for numbers in segments.values():
        problems.gaps.extend(gaps_of(numbers))
        duplicates.update(duplicates_of(numbers))
    problems.duplicates = sorted(duplicates)
    return problems
