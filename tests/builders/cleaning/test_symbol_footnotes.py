"""Footnotes marked `*`, `†`, `(1)` and picture placeholders other than `[Illustration]`.

Written against invented notes in Sherlock Holmes and Tom Sawyer. War and Peace was not
looked at while writing: its translator's notes (`merveille.(2)` … `(2) That suits us
down to the ground.`) are found there, and its epilogue's enumerations (`(1) What is
power?`, `must restore: (1) the …`) stay. Moby Dick and Pride and Prejudice get planted
notes and placeholders: chapters identical to the book without them.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from lengthwise.builders.cleaning import clean_text
from lengthwise.builders.cleaning.symbol_footnotes import superscript_marks, symbol_footnotes
from lengthwise.builders.corpus import CorpusSettings, process_document
from lengthwise.spec import ChaptersConfig, CleaningConfig
from tests.fixtures.planting import chapter_tuples, planted_in_chapters
from tests.fixtures.reprinting import SETTINGS, processed, read_shared, with_text

BOOKS = ["moby_dick.txt", "pride_and_prejudice.txt"]
MARKS = ["*", "†", "(1)"]


def test_war_and_peace_translator_notes_go_and_enumerations_stay(shared_corpora: Path) -> None:
    doc = read_shared(shared_corpora, "en_pg_stripped", "war_and_peace.txt")
    text = doc.text
    spans = symbol_footnotes(text)
    removed = [text[start:end].strip() for start, end in spans]
    notes = [piece for piece in removed if len(piece) > 4]
    references = [piece for piece in removed if len(piece) <= 4]
    assert len(notes) == len(references) >= 10
    assert "(2) That suits us down to the ground." in notes
    assert "(3) Hollow." in notes
    assert not any("What is power" in note for note in notes)
    book, report = process_document(doc, SETTINGS)
    assert book is not None
    # Notes printed one after another go as one block each run.
    runs = sum(1 for k, (start, _) in enumerate(spans) if k == 0 or start > spans[k - 1][1])
    assert report.removed["en/symbol-footnote"] == runs
    body = "\n".join(c.text for c in book.chapters)
    assert "merveille.(2)" not in body and "merveille. Suvórov" in body
    assert "(1) What is power?" in body and "restore: (1) the" in body


@pytest.mark.parametrize("mark", MARKS)
@pytest.mark.parametrize("name", BOOKS)
def test_planted_notes_go_with_their_marks(shared_corpora: Path, name: str, mark: str) -> None:
    doc = read_shared(shared_corpora, "en_pg_stripped", name)
    expected = processed(doc)
    planted, count = planted_in_chapters(
        doc, expected, lambda i: f"{mark}\n\n{mark} See the note on page {100 + i}.", "paragraph"
    )
    book, report = process_document(planted, SETTINGS)
    assert book is not None
    assert chapter_tuples(book) == chapter_tuples(expected)
    assert report.removed["en/symbol-footnote"] == 2 * count


def test_keep_footnotes_keeps_both(shared_corpora: Path) -> None:
    doc = read_shared(shared_corpora, "en_pg_stripped", "moby_dick.txt")
    expected = processed(doc)
    planted, count = planted_in_chapters(doc, expected, lambda i: "†\n\n† A note.", "paragraph")
    keep = CorpusSettings("auto", CleaningConfig(footnotes="keep"), ChaptersConfig())
    book, report = process_document(planted, keep)
    assert book is not None and "en/symbol-footnote" not in report.removed
    assert sum(c.text.count("† A note.") for c in book.chapters) == count


def test_scene_breaks_lists_and_unreferenced_marks_stay() -> None:
    text = (
        "He went out.\n\n* * *\n\nShe came in.\n\n"
        "The rules were these: (1) obey, and (2) be silent.\n\n(1) Obey the captain.\n\n"
        "* A paragraph opening with a star that nothing refers to.\n"
    )
    assert symbol_footnotes(text) == []


@pytest.mark.parametrize(
    "placeholder", ["[Image: A man at the window]", "[Decoration]", "[Picture: The old house]"]
)
@pytest.mark.parametrize("name", BOOKS)
def test_picture_placeholders_go(shared_corpora: Path, name: str, placeholder: str) -> None:
    doc = read_shared(shared_corpora, "en_pg_stripped", name)
    expected = processed(doc)
    planted, count = planted_in_chapters(doc, expected, lambda _: f"\n\n{placeholder}", "paragraph")
    book, report = process_document(planted, SETTINGS)
    assert book is not None
    assert chapter_tuples(book) == chapter_tuples(expected)
    assert report.removed["en/illustration"] == count


ENDNOTES = (
    "\n\n\nENDNOTES\n\n1. The author revised this passage in the second edition. ↩\n\n"
    "2. A common saying of the period. ↩\n\n3. See the preface. ↩\n"
)


@pytest.mark.parametrize("name", BOOKS)
def test_endnotes_go_with_their_superscript_references(shared_corpora: Path, name: str) -> None:
    """An ebook's endnotes section at the end, referred to by superscripts in the text."""
    doc = read_shared(shared_corpora, "en_pg_stripped", name)
    expected = processed(doc)
    marks = ["¹", "²", "³"]
    planted, count = planted_in_chapters(doc, expected, lambda i: marks[i % 3], "paragraph")
    planted = with_text(planted, planted.text.rstrip() + ENDNOTES)
    book, report = process_document(planted, SETTINGS)
    assert book is not None
    assert chapter_tuples(book) == chapter_tuples(expected)
    assert report.removed["en/superscript-marker"] == count
    assert report.removed["en/footnote-block"] == 1


def test_a_stray_superscript_or_two_stays() -> None:
    text = "The area was 40 m² and the volume 8 m³, he said.\n"
    assert superscript_marks(text) == []
    assert len(superscript_marks(text + "x² y² z²\n")) == 5


def _no_blank_book(middle: list[str]) -> str:
    """A hard-wrapped book without blank lines (indented first lines), `middle` inside."""
    prose = textwrap.fill(
        "The wind had turned in the night and the crew were tired of the long watch, "
        "so the captain let them sleep until the light came over the grey water.",
        66,
        initial_indent="   ",
    )
    return "\n".join([prose] * 60 + middle + [prose] * 60) + "\n"


def test_without_blank_lines_a_note_opens_after_a_paragraphs_end() -> None:
    note = ["   He wrote in his log that the storm had passed.*", "   * The log is lost."]
    cleaned = clean_text(_no_blank_book(note), "en", CleaningConfig())
    assert cleaned.removed["en/symbol-footnote"] == 2
    assert "passed.\n" in cleaned.text and "log is lost" not in cleaned.text


def test_without_blank_lines_a_mark_opening_a_wrapped_line_is_no_note() -> None:
    wrapped = [
        "   He wrote in his log that the storm had passed,* and that the crew",
        "* were tired of the watch, and the captain let them sleep until day.",
    ]
    cleaned = clean_text(_no_blank_book(wrapped), "en", CleaningConfig())
    assert "en/symbol-footnote" not in cleaned.removed
