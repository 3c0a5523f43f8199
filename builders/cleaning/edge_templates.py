"""`learned/chapter-edge-template`: a chapter-edge line whose frame recurs, slot varying.

Sites credit a chapter's typist or proofreader on its first or last line, a different
name each time: `本章由「云中鹤」校对`, `本章由「墨染」校对`, `录入：青衫客`. No two such lines
are the same, so the line signatures never see them recur. Their *frame* does: the
edge lines of many chapters share a beginning and an end, and only a short middle
varies. Learned per book, nothing named:

* candidates are the last non-blank line before each heading and the first after it,
  short (`MAX_LINE_CHARS`), with two letters or more and not prose-shaped (no sentence
  end, no Chinese sentence stop: chapter formulae such as `且听下回分解。`, dialogue and
  poems are never candidates);
* candidates are grouped by their first two and by their last two characters; a group
  is a template when it holds at least `learned_min_chapter_share` of the chapters (and
  3) and `MIN_DISTINCT` different lines, and its common prefix and suffix make up at
  least `MIN_FRAME_SHARE` of its lines' mean length and `MIN_FRAME_CHARS` (a shared
  `The ` opening chapter titles is no frame).

Chinese books only: English credits (`Translator: …`) are `en-web` line rules, and an
English book's edge lines are heading candidates this pass does not see.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterator

from lengthwise.builders.cleaning.line_signatures import BookLines, letters, looks_like_prose

RULE = "learned/chapter-edge-template"
MAX_LINE_CHARS = 40
MIN_DISTINCT = 3
MIN_FRAME_SHARE = 0.5
MIN_FRAME_CHARS = 3


def _edge_lines(book: BookLines) -> Iterator[int]:
    """The last non-blank line before each heading (and the book's last line: the last
    chapter's end) and the first one after each heading."""
    headings = set(book.headings)
    for heading in [*book.headings, len(book.stripped)]:
        above = heading - 1
        while above >= 0 and not book.stripped[above]:
            above -= 1
        if above >= 0 and above not in headings:
            yield above
        below = heading + 1
        while below < len(book.stripped) and not book.stripped[below]:
            below += 1
        if below < len(book.stripped) and below not in headings:
            yield below


def _common_prefix(lines: list[str]) -> str:
    first, last = min(lines), max(lines)  # the sorted extremes differ first
    size = 0
    while size < len(first) and first[size] == last[size]:
        size += 1
    return first[:size]


def _frame(lines: list[str]) -> tuple[str, str]:
    prefix = _common_prefix(lines)
    shortest = min(map(len, lines))
    suffix = _common_prefix([line[::-1] for line in lines])[::-1]
    suffix = suffix[: max(0, shortest - len(prefix))]  # the two never overlap
    return prefix, suffix


def edge_templates(
    book: BookLines, min_chapters: float, taken: Collection[int]
) -> list[tuple[str, list[int]]]:
    """(frame shown as `prefix…suffix`, line indexes) of each template learned."""
    candidates = [
        index
        for index in dict.fromkeys(_edge_lines(book))
        if index not in taken
        and len(line := book.stripped[index]) <= MAX_LINE_CHARS
        and letters(line) >= 2
        and not looks_like_prose(line)
    ]
    groups: dict[tuple[str, str], list[int]] = defaultdict(list)
    for index in candidates:
        line = book.stripped[index]
        groups["start", line[:2]].append(index)
        groups["end", line[-2:]].append(index)
    found: list[tuple[str, list[int]]] = []
    used: set[int] = set()
    for indexes in sorted(groups.values(), key=len, reverse=True):
        indexes = [index for index in indexes if index not in used]
        lines = [book.stripped[index] for index in indexes]
        if len(lines) < max(3, min_chapters) or len(set(lines)) < MIN_DISTINCT:
            continue
        prefix, suffix = _frame(lines)
        frame = len(prefix) + len(suffix)
        mean = sum(map(len, lines)) / len(lines)
        if frame >= MIN_FRAME_CHARS and frame >= MIN_FRAME_SHARE * mean:
            found.append((f"{prefix}…{suffix}", indexes))
            used.update(indexes)
    return found
