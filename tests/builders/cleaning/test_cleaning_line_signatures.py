"""Line signatures' bulk (C-level) paths agree with the plain per-line definitions on edge
cases the shared corpora do not hold: long lines that strip short, mixed digit forms,
odd spaces, adjacent zh headings."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from lengthwise.builders.chapters.candidates_zh import HEADING_BY_PREFIX, HEADING_RE
from lengthwise.builders.cleaning import line_signatures
from lengthwise.builders.cleaning.line_signatures import (
    book_signatures,
    letters,
    looks_like_prose,
    signatures,
    split_book,
    zh_heading_offsets,
)

_SPACES = re.compile(r"[\t\r\f\v\xa0\u3000\u202f\u205f\u2000-\u200a]")


def _plain_signature(form: str) -> str:
    """The definition, one line at a time: digit runs -> 0, whitespace runs -> one space."""
    if len(form) > line_signatures.FOLD_MAX_CHARS:
        return form
    folded = re.sub("[0-9０-９]+", "0", form)
    return re.sub(" {2,}", " ", _SPACES.sub(" ", folded))


LINES = [
    "- 12 -",
    "- 345 -",
    "第１２页",
    "第1２3页",
    "曹雪芹\u3000\u3000红楼梦",
    "Running   Header\t 7",
    "x" * 61 + " 12",  # longer than the fold limit: its own signature
    " " * 80 + "CHAPTER 9" + " " * 80,  # long raw line, short once stripped
    "y" * 101,  # longer than max_chars: never counted
    "  " + "z" * 100,  # exactly max_chars once stripped: counted
    "",
    "   ",
    "- 12 -",
    "plain line",
]


def test_bulk_signatures_match_the_per_line_definition() -> None:
    forms = [line.strip() for line in LINES if line.strip()]
    assert signatures(forms) == [_plain_signature(form) for form in forms]
    assert signatures(["no digits or spaces", "a  b"]) == ["no digits or spaces", "a b"]


def test_split_book_counts_only_short_lines_by_signature() -> None:
    book = split_book("\n".join(LINES * 3), max_chars=100)
    stripped = [line.strip() for line in LINES * 3]
    short = [form for form in stripped if 0 < len(form) <= 100]
    assert book.totals == Counter(_plain_signature(form) for form in short)
    assert book.totals["- 0 -"] == 9 and book.totals["z" * 100] == 3
    assert "CHAPTER 0" in book.totals and "y" * 101 not in book.totals
    assert book.nonblank == sum(1 for form in stripped if form)
    assert book.stripped == stripped


def _plain_book_signatures(text: str, max_chars: int) -> list[str]:
    stripped = [line.strip() for line in text.split("\n")]
    counts = Counter(stripped)
    nonblank = [line for line in stripped if line]
    ends = set(nonblank[:50] + nonblank[-50:])
    forms = [f for f, n in counts.items() if (n >= 2 or f in ends) and 0 < len(f) <= max_chars]
    sigs = {_plain_signature(form) for form in forms}
    return sorted(sig for sig in sigs if not looks_like_prose(sig) and letters(sig) >= 2)


def test_book_signatures_match_the_per_line_definition() -> None:
    body = [f"Line {n} of the story, which goes on." for n in range(200)]
    text = "\n".join([*LINES, *body, *LINES, *body, "END  MATTER 3", *LINES[:4]])
    found = book_signatures(text, 100)
    assert found == _plain_book_signatures(text, 100)
    assert "CHAPTER 0" in found and "z" * 100 in found and "y" * 101 not in found


@pytest.mark.parametrize(
    "text",
    [
        "第一回第二回 地第三章 第地一回 天地一回",
        "地一回第二回地三回\n第四回",
        "第 十 回\n地\u3000１２章\n第一百二十三四五六七八九十一二回\n第一",
        "他第二次来，第三回合。地1卷第",
    ],
)
def test_zh_heading_offsets_match_the_heading_regex(text: str) -> None:
    assert len(HEADING_BY_PREFIX) == 2  # one scan per first character
    assert list(zh_heading_offsets(text)) == [m.start() for m in HEADING_RE.finditer(text)]


@pytest.mark.slow
def test_zh_heading_offsets_match_on_a_real_book(shared_corpora: Path) -> None:
    path = shared_corpora / "zh_simplified_four_classics" / "shuihu_utf8.txt"
    text = path.read_text(encoding="utf-8")
    expected = [m.start() for m in HEADING_RE.finditer(text)]
    assert len(expected) > 100
    assert list(zh_heading_offsets(text)) == expected


def test_a_heading_line_is_judged_by_the_whole_books_layout() -> None:
    """In a book without blank lines a heading after a paragraph's last line is set off;
    the two-line window `is_heading_line` looks at must say so too (its own few lines
    would read as the usual layout, where only a blank line sets a heading off)."""
    paragraph = "He walked along the river until the light began to fail and it was late."
    lines = [paragraph] * 150 + ["CHAPTER XII."] + [paragraph] * 150
    text = "\n".join(lines)
    book = line_signatures.split_book(text, 60)
    assert line_signatures.heading_lines(text, "en") == {len(paragraph) * 150 + 150: ""}
    assert line_signatures.is_heading_line(book, 150, "en")
    assert not line_signatures.is_heading_line(book, 149, "en")
