"""The learned step's fast paths agree with the plain computations they stand in for:
digit folding on the lines holding a digit, one line's heading test on its own window,
and skipping the heading pass when every recurring line is an English heading."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from lengthwise.builders.cleaning import learned, line_signatures
from lengthwise.builders.cleaning.learned import learn_and_find
from lengthwise.builders.cleaning.line_signatures import (
    fold_digits,
    heading_lines,
    is_heading_line,
    split_book,
)
from lengthwise.spec import CleaningConfig

_FEW_DIGITS = "\n".join(
    ["- 12 -", "第１２页", "no digit here", "", "x 1 y 22 z 333", "第1２3页", "plain", "9"]
    + [f"words only line {chr(97 + n % 26)}" for n in range(400)]
)
_MANY_DIGITS = "\n".join(f"{n} - {n * 7} -" for n in range(300))


@pytest.mark.parametrize("joined", [_FEW_DIGITS, _MANY_DIGITS, "", "7", "a\n\n3", "no digits"])
def test_fold_digits_matches_the_regex(joined: str) -> None:
    assert fold_digits(joined) == line_signatures.DIGIT_RUN.sub("0", joined)


def test_both_digit_folding_paths_are_exercised() -> None:
    few = sum(map(_FEW_DIGITS.count, line_signatures._DIGITS))
    many = sum(map(_MANY_DIGITS.count, line_signatures._DIGITS))
    ratio = line_signatures._FIND_PER_DIGIT_OVER_REGEX_PER_CHAR
    assert few * ratio <= len(_FEW_DIGITS) and many * ratio > len(_MANY_DIGITS)


EN_BOOK = "\n".join(
    [
        "CHAPTER I",  # the first line: strong without a line above
        "",
        "It was a dark night.",
        "CHAPTER II",  # a non-blank line above: weak, not a heading line
        "",
        "  CHAPTER III.",
        "[Illustration: CHAPTER IV.]",
        "",
        "Chapter five was long, and so it went on.",
        "",
        "VII. THE ADVENTURE OF THE LINE",
        "",
        "12",
        "",
        "CHAPTER VIII " + "and a title far too long to be a heading line " * 2,
        "",
        "EPILOGUE",
    ]
)


def test_one_line_heading_test_matches_the_whole_book_pass() -> None:
    book = split_book(EN_BOOK, 100)
    with_newline = (len(line) + 1 for line in book.lines)
    starts = list(itertools.accumulate(with_newline, initial=0))[:-1]
    whole = heading_lines(EN_BOOK, "en")
    verdicts = [is_heading_line(book, index, "en") for index in range(len(book.lines))]
    assert verdicts == [start in whole for start in starts]
    assert verdicts[0] and not verdicts[3] and verdicts[5] and not verdicts[8]


def _book(chapters: int, extra: list[str]) -> str:
    body = "The story goes on here, as stories do.\n\n" * 3
    parts = [f"\nCHAPTER {n}\n\n{body}" + "\n".join(extra) for n in range(1, chapters + 1)]
    return "\n".join(parts)


@pytest.mark.parametrize(
    "text",
    [
        _book(12, []),  # recurring lines are all headings: the fast path decides
        _book(12, ["Visit www.example.com for more"]),  # a footer: the full path learns it
        "It ends.\nCHAPTER 1\n" + _book(12, []),  # first occurrence weak: full path
        "- 3 -\n" * 6 + _book(12, ["- 1 -", ""]),  # page markers beside headings
    ],
)
def test_skipping_the_heading_pass_changes_nothing(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = CleaningConfig()
    fast = learn_and_find(text, "en", config)
    monkeypatch.setattr(learned, "_all_are_headings", lambda *args: False)
    assert learn_and_find(text, "en", config) == fast


def test_the_fast_path_is_taken_only_when_every_recurring_line_is_a_heading() -> None:
    taken = split_book(_book(12, []), 100)
    assert learned._all_are_headings(taken, {"CHAPTER 0"}, "en")
    weak_first = split_book("It ends.\nCHAPTER 1\n" + _book(12, []), 100)
    assert not learned._all_are_headings(weak_first, {"CHAPTER 0"}, "en")


@pytest.mark.slow
@pytest.mark.parametrize("name", ["war_and_peace.txt", "pride_and_prejudice.txt", "sherlock.txt"])
def test_fast_paths_agree_on_real_books(
    shared_corpora: Path, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = (shared_corpora / "en_pg_stripped" / name).read_text(encoding="utf-8")
    book = split_book(text, 100)
    whole = heading_lines(text, "en")
    starts = list(itertools.accumulate((len(line) + 1 for line in book.lines), initial=0))
    sample = range(0, len(book.lines), 7)
    assert [is_heading_line(book, i, "en") for i in sample] == [starts[i] in whole for i in sample]
    config = CleaningConfig()
    fast = learn_and_find(text, "en", config)
    monkeypatch.setattr(learned, "_all_are_headings", lambda *args: False)
    assert learn_and_find(text, "en", config) == fast


@pytest.mark.parametrize(
    "forms",
    [
        ["Page\t12", "a  b", "x\r\fy", "plain", "- 7 -"],  # ASCII: only ASCII spaces looked for
        ["Page\u3000１２", "a\xa0\u2003b", "plain", "- 7 -"],  # non-ASCII spaces and digits
    ],
)
def test_signatures_match_the_per_line_regexes(forms: list[str]) -> None:
    spaces = re.compile(r"[\t\r\f\v\xa0\u3000\u202f\u205f\u2000-\u200a]")

    def plain(form: str) -> str:
        return re.sub(" {2,}", " ", spaces.sub(" ", re.sub("[0-9０-９]+", "0", form)))

    assert line_signatures.signatures(forms) == [plain(form) for form in forms]
