"""Chapter headings whose number is misprinted or misread by OCR (`CHAPTER lV.`).

A held-out probe (OCR-style misreadings over English e-texts) found such headings lost:
their chapter ran into the one before, and a misread first heading sent chapter 1 to the
front matter. The rule was written against Tom Sawyer, Alice and Moby Dick; the books
below marked held out were not looked at while writing it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lengthwise.builders.chapters.misread_numbers import misread_readings
from lengthwise.builders.corpus import process_document
from lengthwise.records import SourceDocument
from tests.fixtures.reprinting import SETTINGS, hard_wrapped, processed, read_shared, with_text


@pytest.mark.parametrize(
    ("token", "readings"),
    [("lV", (4,)), ("Vll", (7,)), ("1X", (9,)), ("X|V", (14,)), ("l", (1,)), ("ll", (2, 11)),
     ("xiv", (14,)), ("l2", (12,)), ("1O", (10,)), ("lOl", (101,)), ("Ill.", (3, 111)),
     ("XIV", ()), ("12", ()), ("the", ()), ("Ill-fated", ()), ("lVXLlll", ())],
)  # fmt: skip
def test_readings_of_a_token(token: str, readings: tuple[int, ...]) -> None:
    assert misread_readings(token) == readings


def _misread(doc: SourceDocument, misreadings: dict[str, str]) -> SourceDocument:
    """`doc` with every `CHAPTER <number>` heading line of the given numbers misprinted."""
    text = doc.text
    for number, printed in misreadings.items():
        text, count = re.subn(
            rf"(?m)^([ \t]*(?:CHAPTER|Chapter)[ \t]+){number}(?=[.\s]|$)",
            lambda m, printed=printed: m.group(1) + printed,
            text,
        )
        assert count, number
    return with_text(doc, text)


@pytest.mark.parametrize(
    ("folder", "name", "misreadings"),
    [
        ("en_pg_stripped", "tom_sawyer.txt",
         {"I": "l", "IV": "lV", "VII": "Vll", "IX": "1X", "XI": "Xl", "XIV": "X|V"}),
        # held out: parts whose numbering starts again, every part's chapter I misread
        ("en_pg_stripped", "war_and_peace.txt", {"I": "l", "IV": "lV", "XIX": "XlX"}),
        # held out: arabic numbers
        ("en_pg_stripped", "pride_and_prejudice.txt", {"1": "l", "11": "1l", "20": "2O"}),
        ("en_pg_raw", "pg1184.txt", {"1": "l", "31": "3l", "101": "lOl"}),
        # held out: a raw Gutenberg file with a contents list
        ("en_pg_raw", "pg175.txt", {"I": "l", "IV": "lV", "IX": "1X"}),
    ],
)  # fmt: skip
def test_misread_headings_keep_their_chapters(
    shared_corpora: Path, folder: str, name: str, misreadings: dict[str, str]
) -> None:
    doc = read_shared(shared_corpora, folder, name)
    original = processed(doc)
    book, report = process_document(_misread(doc, misreadings), SETTINGS)
    assert book is not None
    assert [(c.number, c.text) for c in book.chapters] == [
        (c.number, c.text) for c in original.chapters
    ]
    [warning] = [w for w in report.warnings if "misread number" in w]
    first = next(c for c in book.chapters if c.number == 1)
    # chapter 1 left the front matter
    assert first.heading.split()[1].rstrip(".") in misreadings.values()
    assert f"{first.heading.splitlines()[0]!r} as 1" in warning


def test_a_misreading_that_does_not_fit_the_hole_stays_in_the_body(
    shared_corpora: Path,
) -> None:
    doc = read_shared(shared_corpora, "en_pg_stripped", "tom_sawyer.txt")
    original = processed(doc)
    # `lX` reads as 9, but the hole it sits in is chapter 4.
    book, report = process_document(_misread(doc, {"IV": "lX"}), SETTINGS)
    assert book is not None
    numbers = [c.number for c in book.chapters]
    assert 4 not in numbers and len(numbers) == len(original.chapters) - 1
    third = next(c for c in book.chapters if c.number == 3)
    assert "\nCHAPTER lX\n" in third.text
    assert [4, 4] in report.gaps
    assert any("CHAPTER lX" in h for h in report.inner_headings)
    assert not any("misread number" in w for w in report.warnings)


def test_a_lowercase_keyword_line_is_prose(shared_corpora: Path) -> None:
    doc = read_shared(shared_corpora, "en_pg_stripped", "tom_sawyer.txt")
    book, _ = process_document(_misread(doc, {"IV": "lV"}), SETTINGS)
    assert book is not None
    # The same misreading after a lowercase keyword is not a heading.
    text = doc.text.replace("\nCHAPTER IV\n", "\nchapter lV\n")
    assert text != doc.text
    book, _ = process_document(with_text(doc, text), SETTINGS)
    assert book is not None
    assert 4 not in [c.number for c in book.chapters]


def test_misread_heading_lines_survive_unwrapping(shared_corpora: Path) -> None:
    """Misread headings of a hard-wrapped book, set tight against their chapter's first
    line, still keep their chapters: unwrapping leaves them lines of their own.
    (tests/builders/cleaning/test_cleaning_structure_lines.py checks that every heading
    detection finds, misread ones included, is a structure line for cleaning.)"""
    doc = read_shared(shared_corpora, "en_pg_stripped", "tom_sawyer.txt")
    # Hard-wrapped, and no blank line between a heading and its chapter's first line.
    tight = re.sub(r"(?m)^(CHAPTER [^\n]*)\n\s*\n", r"\1\n", hard_wrapped(doc.text))
    wrapped = with_text(doc, tight)
    original = processed(wrapped)
    book = processed(_misread(wrapped, {"II": "ll", "IV": "lV", "IX": "1X", "XI": "Xl"}))
    assert [(c.number, c.text) for c in book.chapters] == [
        (c.number, c.text) for c in original.chapters
    ]
