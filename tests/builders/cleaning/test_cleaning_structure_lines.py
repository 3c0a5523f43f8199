"""Cleaning's one-line structure test knows every heading chapter detection finds.

Both build on the same heading words (`chapters/heading_words.py`); a heading form
detection knows but cleaning does not is glued to its neighbours by paragraph
rejoining, or run over by a notice block, before detection ever sees it.
"""

from __future__ import annotations

import random

import pytest

from lengthwise.builders.chapters.candidates_en import find_en_candidates
from lengthwise.builders.chapters.candidates_zh import find_zh_candidates
from lengthwise.builders.cleaning.structure_lines import is_heading_line, is_structure_line

# Pieces of English heading lines in the forms detection takes, and words around them.
EN_PIECES = [
    "CHAPTER", "Chapter", "chapter", "CHAP.", "Ch.", "BOOK", "Part", "VOLUME", "STAVE",
    "LETTER", "CANTO", "C H A P T E R", "P A R T", "The", "FIRST", "Second", "Twenty-First",
    "EPILOGUE", "Prologue", "XII", "IV.", "12", "xii", "One", "the", "Third", "[", "]", "**",
    "--", "===", "(", ")", ":", ".", "A", "Title", "of", "was",
]  # fmt: skip
ZH_LINES = [
    "第十二回 标题", "第 十二 回  标题", "第12章：标题", "【第三回】标题", "[第三章 标题]",
    "第一話 标题", "第一部分 标题", "第三节 标题", "卷三 标题", "第二卷 标题 第五章 标题",
]  # fmt: skip


def _random_line(rng: random.Random) -> str:
    words = [rng.choice(EN_PIECES) for _ in range(rng.randint(1, 5))]
    return rng.choice(["", " ", "  "]) + " ".join(words)


def _headings_found(line: str) -> list[str]:
    """The keyword headings (chapter, part, special) detection finds at the line's start.

    Bare numbers (`IV.`, `VII. The Red Circle`) are left out on purpose: detection takes
    them only in a book without keyword headings, which a one-line test cannot know, and
    taking every titled number as structural would stop notice blocks at numbered lists
    (a publisher's catalogue after THE END was then kept).
    """
    found = find_en_candidates(line) + find_zh_candidates(line)
    indent = len(line) - len(line.lstrip())
    return [c.heading for c in found if c.start == indent and c.strong and c.family != "bare"]


def test_every_english_heading_detection_finds_is_a_structure_line() -> None:
    rng = random.Random(5)
    checked = 0
    for _ in range(4000):
        line = _random_line(rng)
        if not _headings_found(line):
            continue
        checked += 1
        assert is_heading_line(line), line
        assert is_structure_line(line), line
    assert checked > 300  # the random lines do hold headings of many forms


@pytest.mark.parametrize("line", ZH_LINES)
def test_every_chinese_heading_form_is_a_structure_line(line: str) -> None:
    assert _headings_found(line), line  # detection takes it
    assert is_heading_line(line)
    assert is_structure_line(line)


@pytest.mark.parametrize(
    "line",
    [
        "Chapter five was long.",
        "part of it was gone",
        "chapter 12 of the act",
        "The first chapter was",
    ],
)
def test_prose_that_opens_like_a_heading_is_not_one(line: str) -> None:
    assert not _headings_found(line)
    assert not is_heading_line(line)
