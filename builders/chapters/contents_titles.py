"""Chapters headed by their title alone, found through the book's own contents list.

Many editions head each chapter with its title and no number (`Down the Rabbit-Hole`,
`甄士隐梦幻识通灵`). No heading pattern tells such a line from a short line of prose, but
the book's contents list does: a run of short lines near the start whose lines come
back later, in the same order, each alone on its line. Tried only for a book in which
fewer than five numbered headings were found, and taken when it cuts more than twice as
many chapters (`detect.detect_chapters`).

- The contents: a run of at least `MIN_ENTRIES` short non-blank lines (at most
  `MAX_TITLE_CHARS`), with at most one blank line between two of them, in the first
  quarter of the text. A leader and page number (`Title ....... 12`) are not part of
  the title; lines before the first entry found again and after the last one
  (`CONTENTS`, the book's title) are not entries.
- The chapters: each entry found again as a whole line (whitespace and case folded)
  after the contents, each after the previous one. Accepted when at least
  `MIN_FOUND_SHARE` of the entries are found, and the median chapter carries
  `min_chapter_chars`.

Chapters are numbered by their place in the contents (the list is the book's own
numbering): an entry not found in the text is a gap in that numbering, reported and
never sampled across, and its text stays in the chapter before it.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from lengthwise.builders.chapters.model import ChapterDetection, DetectedChapter
from lengthwise.builders.chapters.sequence import numbering_problems
from lengthwise.builders.chapters.spans import body_text

MIN_ENTRIES = 5
MAX_TITLE_CHARS = 80
MIN_FOUND_SHARE = 0.8
_FRONT_SHARE = 0.25
_LEADER = re.compile(r"(?:\s*(?:\.{2,}|…+|·{2,}|\s{2,}))?\s*\d{1,4}\s*$")
_LINE = re.compile(r"[^\n]+")


@dataclass
class _Line:
    start: int
    end: int
    key: str  # the line folded for matching


def detect_from_contents(text: str, min_chapter_chars: int) -> ChapterDetection | None:
    """Chapters headed by the titles of the book's contents list, or None."""
    lines = [_line(m) for m in _LINE.finditer(text)]
    lines = [line for line in lines if line.key]
    front_end = int(len(text) * _FRONT_SHARE)
    # Where each folded line stands in the book, in order: built once for every run.
    places: dict[str, list[int]] = {}
    for index, line in enumerate(lines):
        places.setdefault(line.key, []).append(index)
    best: ChapterDetection | None = None
    for first, last in _short_line_runs(text, lines, front_end):
        detection = _chapters_from(text, lines, places, first, last, min_chapter_chars)
        if detection is not None and (best is None or len(detection.chapters) > len(best.chapters)):
            best = detection
    return best


def _line(match: re.Match[str]) -> _Line:
    printed = match.group()
    title = _LEADER.sub("", printed) if len(printed) <= MAX_TITLE_CHARS + 20 else ""
    key = " ".join(title.split()).casefold() if len(title.strip()) <= MAX_TITLE_CHARS else ""
    return _Line(match.start(), match.end(), key)


def _short_line_runs(text: str, lines: list[_Line], front_end: int) -> list[tuple[int, int]]:
    """(first, last) indexes into `lines` of each run of short lines in the front."""
    runs: list[tuple[int, int]] = []
    first = 0
    for index in range(1, len(lines) + 1):
        ended = (
            index == len(lines)
            or lines[index].start >= front_end
            or text.count("\n", lines[index - 1].end, lines[index].start) > 2
        )
        if ended:
            if index - first >= MIN_ENTRIES:
                runs.append((first, index - 1))
            if index == len(lines) or lines[index].start >= front_end:
                break
            first = index
    return runs


def _chapters_from(
    text: str,
    lines: list[_Line],
    places: dict[str, list[int]],
    first: int,
    last: int,
    min_chapter_chars: int,
) -> ChapterDetection | None:
    """The chapters the contents run `lines[first..last]` heads, when enough are found
    (`places`: each folded line's indexes into `lines`, in order)."""

    def next_after(key: str, position: int) -> int | None:
        """The first line after `lines[position]` that reads `key`."""
        indexes = places[key]
        at = bisect.bisect_right(indexes, position)
        return indexes[at] if at < len(indexes) else None

    # Lines before the first entry that comes back and after the last one (`CONTENTS`,
    # the book's title) are not entries; one between them is an entry whose chapter
    # was not found: a gap at its place.
    returning = [i for i in range(first, last + 1) if next_after(lines[i].key, last) is not None]
    if not returning:
        return None
    entries = range(returning[0], returning[-1] + 1)
    found: list[tuple[int, int]] = []  # (place in the contents, index into lines)
    position = last
    for place, entry in enumerate(entries, start=1):
        following = next_after(lines[entry].key, position)
        if following is not None:
            position = following
            found.append((place, position))
    if len(found) < max(MIN_ENTRIES, MIN_FOUND_SHARE * len(entries)):
        return None
    chapters: list[DetectedChapter] = []
    for number, (place, index) in enumerate(found):
        heading = lines[index]
        stop = lines[found[number + 1][1]].start if number + 1 < len(found) else len(text)
        printed = text[heading.start : heading.end].strip()
        chapters.append(
            DetectedChapter(
                heading=printed,
                number=place,
                title=printed,
                text=body_text(text, heading.end, stop),
                start=heading.start,
                end=stop,
            )
        )
    lengths = sorted(len(c.text) for c in chapters)
    if lengths[len(lengths) // 2] < min_chapter_chars:
        return None
    numbering = numbering_problems([(c.number, None, "contents", c.title) for c in chapters])
    missing = len(entries) - len(found)
    warnings = [
        f"chapters headed by title alone, found through the contents list: {len(found)} of "
        f"its {len(entries)} entries; numbered by their place in it"
        + (f" ({missing} entries not found in the text: see the gaps)" if missing else "")
    ]
    return ChapterDetection(
        chapters=chapters,
        numbers=[c.number for c in chapters],
        gaps=numbering.gaps,
        duplicates=numbering.duplicates,
        front_matter_chars=chapters[0].start or 0,
        method="contents",
        short_chapters=[i for i, c in enumerate(chapters) if len(c.text) < min_chapter_chars],
        warnings=warnings,
    )
