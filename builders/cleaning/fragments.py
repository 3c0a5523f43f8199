"""Sentences and bracketed asides inside a line: what a site or converter glues into the
running text (`…他说。夜读时光提醒您：注意休息。行者…`, `… (Visit the Reading Room for
more classics.) …`), found by shape, for `common/glued-fragment` and the audit's
`repeated_fragment` class.

A fragment is a sentence inside a line (it ends with 。！？!? or a full stop before a
space, closing quotes kept, and more text follows it on its line) or a bracketed aside
(（）()【】〔〕[]〖〗<>{}). A candidate weighs `MIN_WEIGHT` (an ideograph 2, a Latin letter
1: `asked Holmes.` is 11), does not open with a quotation mark and, in Latin script,
stands outside speech (the line's quotation marks before it are closed: speech repeats
its sentences; a Chinese site glues its advert inside dialogue as readily as outside,
and a Chinese book's speech repeats no long sentence). The last sentence of a line is no
candidate: a chapter's closing formula (`未知胜负如何，且看下文分解。`) ends its line, and
whole lines are the line-based rules'.

Written against 水浒传, 三国演义, Sherlock Holmes and Tom Sawyer with adverts glued in;
on the 17 shared books no candidate recurs more than 5 times in a book.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter

MIN_WEIGHT = 20
# Furniture comes every few pages; a book's commonest long sentences a few times in all.
PER_CHARACTERS = 20_000

# Every sentence of a line, the last too (a pattern that could fail mid-line would be
# retried at each next character: quadratic on the long lines of a book saved without
# line breaks). A full stop ends one only before a space; closing quotes stay with it.
_SENTENCE = re.compile(
    r"[^\n。！？!?.]*(?:\.(?![”’\"']?\s)[^\n。！？!?.]*)*"
    r"(?:[。！？!?]+[”’」』\"']?|\.[”’\"']?|(?=\n)|\Z)"
)
_ASIDE = re.compile(r"[（(【〔\[〖<{][^（(【〔\[〖<{）)】〕\]〗>}\n]{2,80}[）)】〕\]〗>}]")
_OPENING_QUOTES = "\"'“‘「『"
_PAIRS = {"”": "“", "’": "‘", "」": "「", "』": "『"}
_ASIDE_OPENERS = "（(【〔[〖<{"
_ASIDE_ENDS = "）)】〕]〗>}"
_STOPS = "。！？!?."
_UNIT_ENDS = _STOPS + "”’」』\"'" + _ASIDE_ENDS
_UNIT_BEFORE = " \t\u3000\n" + _UNIT_ENDS
Span = tuple[int, int]


def weight(fragment: str) -> int:
    """Ideographs count 2, other letters 1 (an ideograph carries a word's worth)."""
    return sum(2 if "\u3400" <= char <= "\u9fff" else 1 for char in fragment if char.isalpha())


def needed(length: int, minimum: int) -> int:
    """How often a fragment must occur in a text of `length` characters."""
    return max(minimum, length // PER_CHARACTERS)


def recurring_fragments(text: str, at_least: int) -> dict[str, list[Span]]:
    """Each fragment standing as a candidate at least `at_least` times (`at_least` >= 2),
    with the spans where it does.

    Sentences and asides are counted in C (`findall`, `Counter`); only those seen twice
    or more are looked at in Python, and only the frequent ones located."""
    found: dict[str, list[Span]] = {}
    for fragment in _repeated(text, at_least):
        latin = not _has_ideographs(fragment)
        spans = [
            span
            for span in occurrences(text, fragment)
            if _is_unit(text, fragment, span)
            and not _ends_line(text, span[1])
            and not (latin and _in_speech(text, span[0]))
        ]
        if len(spans) >= at_least:
            found[fragment] = spans
    return found


def may_recur(part: str) -> bool:
    """Whether some sentence or aside that may be a fragment occurs twice in `part`:
    without that in a sample of a book, nothing in it is glued in every few pages."""
    return any(
        sum(1 for _, end in occurrences(part, fragment) if not _ends_line(part, end)) >= 2
        for fragment in _repeated(part, 2)
    )


def _repeated(text: str, at_least: int) -> Counter[str]:
    """Fragment-shaped sentences and asides seen `at_least` times (quote marks, position
    and speech not yet checked), with their counts."""
    counts = Counter(_SENTENCE.findall(text))
    counts.update(_ASIDE.findall(text))
    merged: Counter[str] = Counter()
    for raw, count in counts.items():
        if count < 2:
            continue
        fragment = _own_quotes(raw.strip())
        if (
            fragment
            and fragment[0] not in _OPENING_QUOTES
            # Else it ended its line: no candidate (`_is_unit` would refuse it too, later).
            and fragment[-1] in _UNIT_ENDS
            and weight(fragment) >= MIN_WEIGHT
        ):
            merged[fragment] += count
    return Counter({f: n for f, n in merged.items() if n >= at_least})


def chapter_counts(chapters: list[str], separator: str, at_least: int) -> dict[str, dict[int, int]]:
    """For the book made of `chapters` joined by `separator`: each fragment standing as a
    candidate at least `at_least` times in it, with its count per chapter index. A sample
    of consecutive chapters holds the sum over its chapters: candidates are decided
    within their line, and no fragment spans a line."""
    starts, at = [], 0
    for chapter in chapters:
        starts.append(at)
        at += len(chapter) + len(separator)
    found: dict[str, dict[int, int]] = {}
    for fragment, spans in recurring_fragments(separator.join(chapters), at_least).items():
        counts: dict[int, int] = {}
        for start, _ in spans:
            index = bisect.bisect_right(starts, start) - 1
            counts[index] = counts.get(index, 0) + 1
        found[fragment] = counts
    return found


def occurrences(text: str, fragment: str) -> list[Span]:
    """Every (non-overlapping) place `fragment` is printed."""
    found, at = [], text.find(fragment)
    while at >= 0:
        found.append((at, at + len(fragment)))
        at = text.find(fragment, at + len(fragment))
    return found


def _is_unit(text: str, fragment: str, span: Span) -> bool:
    """Whether the fragment printed at `span` stands as a sentence or aside of its own,
    not as the tail of a longer sentence (`…且看下回分解` inside `…且看下回分解。`)."""
    start, end = span
    if end < len(text) and fragment[-1] not in _ASIDE_ENDS and text[end] in _STOPS:
        return False
    return start == 0 or fragment[0] in _ASIDE_OPENERS or text[start - 1] in _UNIT_BEFORE


def _ends_line(text: str, end: int) -> bool:
    rest = text[end : end + 80].lstrip(" \t\u3000")
    return not rest or rest[0] == "\n"


def _own_quotes(fragment: str) -> str:
    """`fragment` without a closing quotation mark it did not open: an advert glued just
    before a speech's end (`…之人。[advert]”`) leaves the speaker's mark to the story."""
    while fragment and fragment[-1] in "”’」』\"'":
        mark = fragment[-1]
        opener = _PAIRS.get(mark)
        own = opener in fragment if opener else fragment.count(mark) % 2 == 0
        if own:
            break
        fragment = fragment[:-1]
    return fragment


def _has_ideographs(fragment: str) -> bool:
    return any("\u3400" <= char <= "\u9fff" for char in fragment)


def _in_speech(text: str, position: int) -> bool:
    """Whether `position` is inside quotation marks opened earlier on its line (Latin
    script only is asked: its lines are paragraphs, not books)."""
    line = text[text.rfind("\n", 0, position) + 1 : position]
    if line.count('"') % 2:
        return True
    return line.count("“") > line.count("”")
