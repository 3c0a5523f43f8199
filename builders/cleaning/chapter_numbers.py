"""A recurring number line (`— 12 —`, `* 3 *`, `[7]`, `12`): page numbers, or chapter numbers?

Both recur with a rising number, so the line's shape cannot tell. Where they sit can:
a printed page holds about `PAGE_CHARS` characters, so page numbers come about that far
apart, and a page break falls wherever the page ends, mostly inside a sentence; chapter
numbers come several pages apart and always between paragraphs, after a finished
sentence. A line of digits and decoration only (no letters: `Page 12` and `第12页` say
what they are) whose occurrences are at least `MIN_CHAPTER_PAGES` pages apart on average
and (nearly) never cut a sentence is left for chapter detection, which takes it as a bare
heading where the numbering holds (`chapters/bare_en.py`, `chapters/bare_zh.py`).

A bare number alone on its line (`12`) is also a heading candidate for detection, so it
needs the opposite proof to go as a page number (`reads_as_page_numbers`): its lines
come less than `MIN_CHAPTER_PAGES` pages apart and at least `MIN_PAGE_CUT_SHARE` of them
cut a sentence. Chapter numbers in a book of short chapters fail the second test: they
follow finished paragraphs.
"""

from __future__ import annotations

from collections.abc import Sequence

from lengthwise.builders.cleaning.line_signatures import BookLines, SignatureStats

# Characters of one printed page, by script: about 350 English words, 700 Chinese
# characters.
PAGE_CHARS = {"zh": 700}
PAGE_CHARS_DEFAULT = 2_000
MIN_CHAPTER_PAGES = 3
MAX_CUT_SHARE = 0.1  # of occurrences with an unfinished sentence above them
# Page breaks fall at the end of whatever line ends the page: most cut a sentence.
MIN_PAGE_CUT_SHARE = 1 / 3
_LOOK_UP_LINES = 3  # blank lines skipped above an occurrence
# What a finished paragraph ends with (closing quotes and brackets after the stop count;
# not a hyphen: a word broken at the line end).
_FINISHED = set(".!?…。！？”’\"')]）」』》:：;；—*")


def reads_as_chapter_numbers(book: BookLines, entry: SignatureStats, language: str) -> bool:
    """Whether a letterless number line's occurrences are spaced and placed like chapter
    numbers (`book.starts` must be set: `line_signatures.add_line_starts`)."""
    lines = sorted(entry.lines)
    if len(lines) < 3 or not spaced_like_chapters([book.starts[i] for i in lines], language):
        return False
    cut = sum(1 for index in lines[1:] if _cuts_a_sentence(book, index))
    return cut <= MAX_CUT_SHARE * (len(lines) - 1)


def reads_as_page_numbers(book: BookLines, entry: SignatureStats, language: str) -> bool:
    """Whether a letterless number line's occurrences are surely page numbers: spaced
    less than `MIN_CHAPTER_PAGES` pages apart and cutting sentences (see the module
    docstring; `book.starts` must be set)."""
    lines = sorted(entry.lines)
    if len(lines) < 3 or spaced_like_chapters([book.starts[i] for i in lines], language):
        return False
    cut = sum(1 for index in lines[1:] if _cuts_a_sentence(book, index))
    return cut >= MIN_PAGE_CUT_SHARE * (len(lines) - 1)


def spaced_like_chapters(offsets: Sequence[int], language: str) -> bool:
    """Whether occurrences at ascending `offsets` come at least `MIN_CHAPTER_PAGES` printed
    pages apart on average (page numbers come about one page apart)."""
    if len(offsets) < 2:
        return False
    page = PAGE_CHARS.get(language[:2], PAGE_CHARS_DEFAULT)
    return (offsets[-1] - offsets[0]) / (len(offsets) - 1) >= MIN_CHAPTER_PAGES * page


def _cuts_a_sentence(book: BookLines, index: int) -> bool:
    """Whether the nearest text line above line `index` ends without finishing a sentence
    (the first occurrence is not asked: a title page may stand above chapter one)."""
    for above in range(index - 1, max(-1, index - 1 - _LOOK_UP_LINES), -1):
        line = book.stripped[above]
        if line:
            return line[-1] not in _FINISHED
    return False


def inside_sentence_share(book: BookLines, entry: SignatureStats) -> float:
    """The share of a recurring line's occurrences that stand inside a sentence: the
    nearest text line above ends without finishing it and the one below goes on in
    lowercase. Page furniture (a running header, a page number) falls where the page
    ends, mostly mid-sentence; the story's own lines (a refrain, a verse) never do."""
    lines = sorted(entry.lines)[1:]  # (the first may stand under a title page)
    if not lines:
        return 0.0
    inside = sum(1 for index in lines if _cuts_a_sentence(book, index) and _goes_on(book, index))
    return inside / len(lines)


def _goes_on(book: BookLines, index: int) -> bool:
    """Whether the nearest text line below line `index` starts in lowercase."""
    for below in range(index + 1, min(len(book.stripped), index + 1 + _LOOK_UP_LINES)):
        line = book.stripped[below]
        if line:
            return line[0].islower()
    return False
