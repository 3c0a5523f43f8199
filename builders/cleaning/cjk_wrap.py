"""Wrap widths of CJK text, and where its lines break inside a sentence.

Chinese e-texts are cut every N characters, and a book put together from several
sources (or saved chapter by chapter) is cut at several widths at once: 30 in one
chapter, 35 or 40 in the next, and some chapters not at all. `unwrap.wrap_width` looks
for one sharp upper mode and finds none in such a book (a held-out hard-wrapped novel
kept line breaks inside sentences in 20 % of its samples). Here every width is found
as a spike of the line-length histogram: a length that many lines hit exactly, far
more than the lengths around it (the short last lines of paragraphs spread evenly).

A line at such a width breaks inside a sentence when it does not end one (`SENTENCE_ENDS`):
verse, headings and a paragraph's last line end with a stop or are shorter, so only a
line cut by the wrap is taken. The audit's `line_break` class reads the same test on the
final text (`in_sentence_breaks`).
"""

from __future__ import annotations

import re
import statistics
import unicodedata
from collections import Counter

MIN_WIDTH, MAX_WIDTH = 16, 200
MIN_SPIKE_LINES = 20  # a width is hit exactly by this many lines at least ...
MIN_SPIKE_SHARE = 0.02  # ... and by this share of the non-blank lines
SPIKE_FACTOR = 4.0  # ... this many times as often as the lengths around it (median)
NEIGHBOURHOOD = range(2, 7)  # the lengths 2..6 away compared with it
INDENT_SLACK = 2  # two ideographic spaces of indentation become four ASCII spaces
# What ends a sentence (or a clause set on a line of its own) at a line end.
SENTENCE_ENDS = "。！？!?…；;：:」』”’）)】》〉\"'"
_IDEOGRAPH = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
# A break inside a sentence in English: a line of prose ending in a lowercase word or a
# comma, the next line going on in lowercase.
_EN_BREAK = re.compile(r"[a-z,]\n[ \t]*[a-z]")
MIN_BROKEN_LINE_CHARS = {"zh": 12, "en": 30}


def spike_widths(lines: list[str]) -> tuple[int, ...]:
    """The widths many lines are cut at exactly (ascending); () when none."""
    counts = Counter(len(line) for line in lines if line.strip())
    total = sum(counts.values())
    least = max(MIN_SPIKE_LINES, MIN_SPIKE_SHARE * total)
    widths = []
    for width, count in counts.items():
        if not MIN_WIDTH <= width <= MAX_WIDTH or count < least:
            continue
        # The median, not the mean: a spike's neighbour may be a spike itself (a
        # paragraph's first line, its indentation widened to spaces, is 2 longer).
        around = [counts.get(width + sign * d, 0) for d in NEIGHBOURHOOD for sign in (1, -1)]
        if count >= SPIKE_FACTOR * max(1.0, statistics.median(around)):
            widths.append(width)
    return tuple(sorted(widths))


def ends_sentence(line: str) -> bool:
    """Whether `line` ends a sentence (or a clause of its own) at its last character."""
    stripped = line.rstrip()
    # NFKC: the small forms (`﹔` closing a verse line in 今古奇觀, `﹐`) read as `;` `,`.
    return not stripped or unicodedata.normalize("NFKC", stripped[-1])[-1:] in SENTENCE_ENDS


def cut_inside_sentence(line: str, widths: tuple[int, ...], above: str | None = None) -> bool:
    """A line at one of `widths` (one character either way, for a mark the wrap let
    hang or pushed down) that ends inside a sentence, in a stretch cut at that width: the
    line `above` it is no longer (but for a paragraph's first line, its indentation
    widened by `INDENT_SLACK`). A paragraph's short last line after a longer full one is
    no wrap, even where many last lines happen to have one length."""
    length = len(line)
    if above is not None and len(above) > length + INDENT_SLACK:
        return False
    return any(abs(length - width) <= 1 for width in widths) and not ends_sentence(line)


def in_sentence_breaks(text: str, language: str) -> list[int]:
    """Offsets of the line ends in `text` that fall inside a sentence: in Chinese (and
    other CJK), a line of `MIN_BROKEN_LINE_CHARS` or more ending on an ideograph with the
    next line opening on one (a Chinese sentence or clause ends with a mark; verse lines,
    headings and titles are shorter or end with one); in English, a prose line ending in
    a lowercase word or comma with the next line going on in lowercase."""
    found = []
    if language == "en":
        for match in _EN_BREAK.finditer(text):
            start = text.rfind("\n", 0, match.start()) + 1
            if match.start() + 1 - start >= MIN_BROKEN_LINE_CHARS["en"]:
                found.append(match.start() + 1)
        return found
    at = text.find("\n")
    while at >= 0:
        start = text.rfind("\n", 0, at) + 1
        line = text[start:at].strip()
        following = text[at + 1 : at + 9].lstrip(" \t\u3000")
        if (
            len(line) >= MIN_BROKEN_LINE_CHARS["zh"]
            and _IDEOGRAPH.match(line[-1])
            and following
            and _IDEOGRAPH.match(following[0])
        ):
            found.append(at)
        at = text.find("\n", at + 1)
    return found
