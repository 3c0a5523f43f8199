"""A closing section without a number, set off like the book's headings: a unit.

Letters numbered by bare numerals end with the narrator's `CONCLUSION`; a book of numbered
chapters with a closing `FINALE` or `THE LAST`: a short line in capitals, no number,
standing alone with at least as many blank lines above it as the book's headings have, in
the last unit, with a unit's worth of text after it. Before, it stayed inside the last
letter, its heading line read as that letter's text. One such line only (several are a
list or a letter's own headings, not the book's), and never in a play's speech: a
speaker's name has a single blank line above it, headings more.
"""

from __future__ import annotations

import re
import statistics
from dataclasses import replace

from lengthwise.builders.chapters.model import ChapterDetection, DetectedChapter
from lengthwise.builders.chapters.spans import body_text, stripped_length

_CLOSING = re.compile(r"[A-Z][A-Z'’ -]{2,30}[A-Z]\.?")
_MIN_BLANK_LINES = 2
_INITIAL = re.compile(r"[LCDM]\.")


def drop_initials(text: str, detection: ChapterDetection) -> None:
    """A bare heading that is a single roman letter worth 50 or more (`C. VERNON.`,
    `L. Smith`) far beyond the numbers before it is a signature's initial, not chapter
    100: it goes back into the chapter above it, with the gap it opened. In place."""
    chapters = detection.chapters
    index = 1
    while index < len(chapters):
        chapter, previous = chapters[index], chapters[index - 1]
        token = chapter.heading.split()[0] if chapter.heading.split() else ""
        if (
            _INITIAL.fullmatch(token)
            and chapter.number is not None
            and previous.number is not None
            and chapter.number > previous.number + 2
            and previous.start is not None
            and chapter.end is not None
        ):
            gap = (previous.number + 1, chapter.number - 1)
            merged = f"{previous.text}\n\n{chapter.heading}\n\n{chapter.text}".strip()
            chapters[index - 1] = replace(previous, text=merged, end=chapter.end)
            del chapters[index]
            del detection.numbers[index]
            detection.gaps = [g for g in detection.gaps if tuple(g) != gap]
            continue
        index += 1


def closing_unit(text: str, detection: ChapterDetection, min_chapter_chars: int) -> None:
    """Split the last chapter at its closing section, in place (see the module docstring)."""
    chapters = detection.chapters
    if len(chapters) < 2 or any(c.start is None or c.end is None for c in chapters):
        return
    spacing = statistics.median(_blank_lines_above(text, c.start or 0) for c in chapters)
    last = chapters[-1]
    assert last.start is not None and last.end is not None
    body_start = text.find("\n", last.start)
    if body_start < 0:
        return
    found = []
    for match in re.finditer(r"(?m)^[ \t]*(\S[^\n]*?)[ \t]*$", text[body_start : last.end]):
        line = match.group(1)
        if len(line) > 34 or _CLOSING.fullmatch(line) is None:
            continue
        start = body_start + match.start(1)
        above = _blank_lines_above(text, start)
        if above >= max(_MIN_BLANK_LINES, spacing) and _blank_line_below(text, start + len(line)):
            found.append((start, line))
    if len(found) != 1:
        return
    start, line = found[0]
    end = start + len(line)
    if stripped_length(text, end, last.end) < min_chapter_chars:
        return
    closing = DetectedChapter(
        heading=line,
        number=None,
        title=line.rstrip("."),
        text=body_text(text, end, last.end),
        part=last.part,
        start=start,
        end=last.end,
    )
    at = last.text.rfind(f"\n{line}")
    if at < 0:
        return
    chapters[-1] = replace(last, text=last.text[:at].rstrip(), end=start)
    chapters.append(closing)
    detection.numbers.append(None)


def _blank_lines_above(text: str, position: int) -> int:
    line_start = text.rfind("\n", 0, position) + 1
    count = 0
    while line_start > 0:
        above = text.rfind("\n", 0, line_start - 1) + 1
        if text[above : line_start - 1].strip():
            break
        count += 1
        line_start = above
    return count


def _blank_line_below(text: str, end: int) -> bool:
    next_start = text.find("\n", end)
    if next_start < 0:
        return False
    following = text.find("\n", next_start + 1)
    return not text[next_start + 1 : following if following >= 0 else len(text)].strip()
