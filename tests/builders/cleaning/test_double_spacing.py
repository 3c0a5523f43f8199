"""A hard-wrapped book with a blank line after every line (`common/double-spacing`).

Written against Tom Sawyer set this way (before: its 1,857 paragraphs came out as 7,135
lines, the wrap never undone); Sherlock Holmes and Moby Dick were checked after.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from lengthwise.builders.cleaning import clean_text
from lengthwise.records import Book
from lengthwise.spec import CleaningConfig
from tests.fixtures.reprinting import processed, read_shared, with_text

RULE = "common/double-spacing"


def _paragraphs(text: str) -> list[str]:
    return [" ".join(p.split("\n")) for p in re.split(r"\n\s*\n", text) if p.strip()]


def double_spaced_indented(text: str) -> str:
    """Wrapped at 66 columns, first lines indented, a blank line after every line."""
    wrapped = (
        textwrap.fill(p, 66, initial_indent="   ", break_on_hyphens=False)
        for p in _paragraphs(text)
    )
    return "\n\n".join("\n".join(wrapped).split("\n"))


def double_spaced_with_gaps(text: str) -> str:
    """Wrapped at 66 columns, a blank line after every line, two between paragraphs."""
    paragraphs = (
        "\n\n".join(textwrap.wrap(p, 66, break_on_hyphens=False)) for p in _paragraphs(text)
    )
    return "\n\n\n".join(paragraphs)


def _lines(book: Book) -> int:
    return sum(1 for c in book.chapters for line in c.text.split("\n") if line.strip())


# Known gap (Dec 2 2026): the closing-unit rule (chapters/closing_units.py) reads the
# blank lines above `CONCLUSION`; double-spaced with gaps, Tom Sawyer's CONCLUSION has as
# many as its headings and becomes a unit, while the book as printed keeps it inside its
# last chapter. Strict: the day both agree this fails, and the mark goes.
_CLOSING_UNIT_GAP = pytest.mark.xfail(
    reason="CONCLUSION a unit only in the double-spaced layout (closing_units blank lines)",
    strict=True,
)
_CASES = [
    pytest.param(
        name,
        layout,
        id=f"{name}-{layout.__name__}",
        marks=[_CLOSING_UNIT_GAP]
        if (name, layout) == ("tom_sawyer.txt", double_spaced_with_gaps)
        else [],
    )
    for name in ("tom_sawyer.txt", "sherlock.txt", "moby_dick.txt")
    for layout in (double_spaced_indented, double_spaced_with_gaps)
]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "layout"), _CASES)
def test_a_double_spaced_book_is_unwrapped_into_its_paragraphs(
    shared_corpora: Path, name: str, layout: object
) -> None:
    doc = read_shared(shared_corpora, "en_pg_stripped", name)
    reference = processed(doc)
    assert callable(layout)
    book = processed(with_text(doc, layout(doc.text)))
    assert [c.heading for c in book.chapters] == [c.heading for c in reference.chapters]
    assert ["".join(c.text.split()) for c in book.chapters] == [
        "".join(c.text.split()) for c in reference.chapters
    ]
    # Paragraphs, not wrapped lines (paragraphs marked by indentation alone may be
    # glued or split by unwrapping: within 2 %).
    assert abs(_lines(book) - _lines(reference)) <= 0.02 * _lines(reference)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("folder", "name"),
    [
        ("en_pg_stripped", "pride_and_prejudice.txt"),  # a paragraph a line, blank between
        ("en_pg_raw", "pg514.txt"),  # hard-wrapped, blank lines between paragraphs
        ("zh_simplified_four_classics", "hongloumeng_utf8.txt"),
    ],
)
def test_books_that_are_not_double_spaced_keep_their_blank_lines(
    shared_corpora: Path, folder: str, name: str
) -> None:
    doc = read_shared(shared_corpora, folder, name)
    assert RULE not in clean_text(doc.text, "auto", CleaningConfig()).removed


def test_short_lines_and_paragraph_gaps_stay() -> None:
    line = "the dog barked at the gate and the house was still for a long time"
    text = "\n\n".join([line] * 80) + "\n\n\n\nA short line.\n\n" + line + "\n"
    cleaned = clean_text(text, "en", CleaningConfig())
    assert cleaned.removed[RULE] == 80
    assert "\n\nA short line.\n" + line in cleaned.text.replace(line + " " + line, line)


def test_a_wrapped_book_of_short_paragraphs_keeps_its_paragraph_breaks() -> None:
    """Most of its lines are followed by a blank line, but only half of its full lines
    are (the others go on in a paragraph's second line)."""
    full = "the dog barked at the gate and the house was still for a long time"
    paragraphs = [
        f"{full}\nand then it was night {n}." if n % 2 else f"{full}." for n in range(100)
    ]
    cleaned = clean_text("\n\n".join(paragraphs) + "\n", "en", CleaningConfig())
    assert RULE not in cleaned.removed
    assert cleaned.text.count("\n\n") == 99


def test_paragraphs_a_line_of_any_length_keep_their_blank_lines() -> None:
    """No wrap width: lines of every length, so no line is `full`."""
    sentence = "It was late and cold there. "
    paragraphs = [(sentence * (1 + n % 8)).strip() for n in range(120)]
    cleaned = clean_text("\n\n".join(paragraphs) + "\n", "en", CleaningConfig())
    assert RULE not in cleaned.removed
