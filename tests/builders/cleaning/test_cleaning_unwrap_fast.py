"""The cheap `may_be_hard_wrapped` check never rules out a book `wrap_width` would unwrap."""

from __future__ import annotations

import random

from lengthwise.builders.cleaning.unwrap import (
    BEYOND_ANY_WIDTH,
    MAX_WIDTH,
    may_be_hard_wrapped,
    unwrap_paragraphs,
    wrap_width,
)


def _line(rng: random.Random, length: int) -> str:
    if rng.random() < 0.1:
        return " " * length  # blank for `wrap_width`, however long
    start = rng.randrange(6)
    return ("ab cd\r" * (length // 6 + 2))[start : start + length - 1] + "z" if length else ""


def _book(rng: random.Random) -> str:
    """Lines near a wrap width, some long ones near the share that rules a width out."""
    width = rng.choice([20, 70, 150, MAX_WIDTH, MAX_WIDTH + 10])
    count = rng.randint(30, 200)
    long_share = rng.choice([0.0, 0.01, 0.02, 0.021, 0.03, 0.2])
    lines = []
    for _ in range(count):
        if rng.random() < long_share:
            length = rng.choice([BEYOND_ANY_WIDTH - 1, BEYOND_ANY_WIDTH, BEYOND_ANY_WIDTH + 40])
        else:
            length = rng.choice([0, width, width - 1, width - 3, rng.randint(1, width)])
        lines.append(_line(rng, length))
    return "\n".join(lines)


def test_ruled_out_books_have_no_wrap_width() -> None:
    rng = random.Random(5)
    ruled_out = kept = 0
    for _ in range(3000):
        text = _book(rng)
        if may_be_hard_wrapped(text):
            kept += 1
        else:
            ruled_out += 1
            assert wrap_width(text.split("\n")) is None, text
    assert ruled_out > 300 and kept > 300  # both sides of the check are exercised


def test_long_first_line_and_blank_long_lines_do_not_count() -> None:
    wrapped = "\n".join(["x" * 60] * 100)
    assert may_be_hard_wrapped(("y" * 500 + "\n") + wrapped)  # the first line is not counted
    assert may_be_hard_wrapped(wrapped + ("\n" + " " * 500) * 10)  # blank lines are not lines
    assert not may_be_hard_wrapped(wrapped + ("\n" + "y" * 500) * 3)  # 3 of 103 lines: > 2%


def test_paragraph_per_line_book_is_left_alone_without_splitting() -> None:
    text = "\n\n".join("A paragraph that runs on. " * 20 for _ in range(60))
    assert not may_be_hard_wrapped(text)
    assert unwrap_paragraphs(text).text is text
