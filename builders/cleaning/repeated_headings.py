"""Chapter headings printed again inside their chapter: the page headers of paginated sites.

A site that shows a chapter over several pages prints its heading at the top of each,
and a saved or scraped file keeps them: `第1章 风起` … `第1章 风起（2/2）` … or the same
heading again with `第2页`, or unchanged. Each such line used to open a chapter of its
own, numbered like the one before: 40 chapters became 80, reported as split or doubled
numbers only.

Once chapters are known, a chapter whose heading repeats the previous chapter's heading
(same number, same part, the same words once page marks such as `（2/2）`, `第2页`,
`[page 2]` are set aside) is a page of that chapter: its heading line is removed, counted
under ``learned/repeated-heading``, and chapters are found again. Two cases stay:
- a chapter printed in parts under part marks (`（上）`/`（下）`, `(continued)`): the
  marks differ once page marks are set aside, so chapter detection reports a split number;
- a chapter saved twice (a scraper that fetched it again): its body opens as the
  previous one's did, so it is a doubled chapter, which the report lists as a duplicate.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from lengthwise.builders.chapters.model import DetectedChapter
from lengthwise.builders.cleaning.drama_lines import is_speaker_label
from lengthwise.builders.cleaning.learned import REPEATED_HEADING, LearnedLine
from lengthwise.builders.cleaning.ledger import Edit
from lengthwise.text.numerals import DIGIT_CLASS, NUMERAL_CLASS

RULE = REPEATED_HEADING
# The non-space characters compared at the start of two chapters' bodies: equal, the
# chapter was saved twice.
OPENING_CHARS = 100
_DIGIT = f"[{DIGIT_CLASS}]"
_ZH_DIGIT = f"[{NUMERAL_CLASS}]"
# A page mark ending a heading line: `（2/2）`, `2/3`, `第2页`, `(第2页)`, `[page 2]`.
_PAGE_MARK = re.compile(
    r"[\s　]*[（(【\[〔]?[\s　]*"
    rf"(?:{_DIGIT}{{1,3}}[\s　]*[/／][\s　]*{_DIGIT}{{1,3}}"
    rf"|第[\s　]*{_ZH_DIGIT}{{1,4}}[\s　]*[页頁]"
    rf"|(?:page|Page|PAGE|p\.)[\s　]*{_DIGIT}{{1,4}})"
    r"[\s　]*[）)】\]〕]?[\s　]*$"
)


def page_base(heading_line: str) -> str:
    """A heading line without a trailing page mark, its whitespace collapsed."""
    return " ".join(_PAGE_MARK.sub("", heading_line).split())


def repeated_heading_edits(
    text: str, chapters: Sequence[DetectedChapter]
) -> tuple[list[Edit], list[LearnedLine]]:
    """Edits removing each line that prints a chapter's heading again inside the chapter:
    the heading of a chapter that is a page of the one before, or a line in its body."""
    edits: list[Edit] = []
    for previous, chapter in pairwise(chapters):
        line = _own_heading_line(text, chapter)
        if line is not None and is_speaker_label(line):
            continue  # a play's speaker, taken for a heading: the speech would merge
        if line is not None and _is_page_of(previous, chapter):
            assert chapter.start is not None
            edits.append(_line_removal(text, chapter.start, chapter.start + len(line)))
    for chapter in chapters:
        edits += _repeats_in_body(text, chapter)
    if not edits:
        return [], []
    edits.sort()
    first = edits[0]
    learned = LearnedLine(
        rule=RULE,
        line=text[first[0] : first[1]].strip(),
        count=len(edits),
        scope="book",
        why="a chapter's heading printed again inside it (a page header)",
    )
    return edits, [learned]


_BLANK_LINE = re.compile(r"[ \t\u3000]*\n")


def _line_removal(text: str, start: int, end: int) -> Edit:
    """The line `text[start:end]` with the blank lines around it, leaving one blank line
    between the text above and below when either side had one, else a line break.

    Not `line_rules._line_removal` (the narrower gap, halves of a sentence joined): that
    runs before the final blank-line rules, this after them, on text whose blank lines an
    earlier removal may have doubled (a notice line cut out right above the header); the
    text left must already be in its final form."""
    first = start  # the first blank line right above
    while first > 0:
        above = text.rfind("\n", 0, first - 1) + 1
        if text[above : first - 1].strip(" \t\u3000") or first - 1 < above:
            break
        first = above
    last = end + 1 if text.startswith("\n", end) else end  # after the blank lines below
    while (blank := _BLANK_LINE.match(text, last)) is not None and last < len(text):
        last = blank.end()
    blank_around = first < start or last > end + 1
    return (first, last, "\n" if blank_around and first > 0 else "")


def _own_heading_line(text: str, chapter: DetectedChapter) -> str | None:
    """The chapter's heading as one line of the text, when it is printed so."""
    start = chapter.start
    line = chapter.heading
    if start is None or "\n" in line or not text.startswith(line, start):
        return None
    if start > 0 and text[start - 1] != "\n":
        return None  # glued after text on its line: not a page header
    return line


def _is_page_of(previous: DetectedChapter, chapter: DetectedChapter) -> bool:
    if chapter.number is None or chapter.number != previous.number:
        return False
    if chapter.part != previous.part or chapter.kind != previous.kind:
        return False
    first_line = previous.heading.split("\n")[0]
    if page_base(chapter.heading) != page_base(first_line):
        return False
    return _opening(chapter.text) != _opening(previous.text)


def _repeats_in_body(text: str, chapter: DetectedChapter) -> list[Edit]:
    """Lines inside the chapter's span that print its heading again (page marks aside),
    unless the text after one opens as the chapter's body does (a chapter saved twice)."""
    if chapter.start is None or chapter.end is None or chapter.number is None:
        return []
    first_line = chapter.heading.split("\n")[0]
    base = page_base(first_line)
    words = base.split()
    if not words or is_speaker_label(first_line):
        return []
    edits: list[Edit] = []
    opening = _opening(chapter.text)
    position = text.find(words[0], chapter.start + len(first_line), chapter.end)
    while position >= 0:
        line_start = text.rfind("\n", chapter.start, position) + 1
        line_end = text.find("\n", position, chapter.end)
        line_end = chapter.end if line_end < 0 else line_end
        if (
            line_start > chapter.start
            and not text[line_start:position].strip()
            and page_base(text[position:line_end]) == base
            and _opening(text[line_end : line_end + OPENING_CHARS * 3]) != opening
        ):
            edits.append(_line_removal(text, line_start, line_end))
        position = text.find(words[0], line_end, chapter.end)
    return edits


def _opening(body: str) -> str:
    return "".join(body[: OPENING_CHARS * 3].split())[:OPENING_CHARS]
