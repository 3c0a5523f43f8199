"""Notes printed without a mark, learned from the layout of the book's marked notes.

Written against War and Peace (the only shared book with such notes: its first note
after a paragraph has no `(1)`). Pride and Prejudice, not looked at while writing, gets
planted notes in that layout; the guards are checked on small texts.
"""

from __future__ import annotations

import re
from pathlib import Path

from lengthwise.builders.cleaning.unmarked_footnotes import unmarked_footnotes
from lengthwise.builders.corpus import CorpusSettings, process_document
from lengthwise.records import Book, SourceDocument
from lengthwise.spec import ChaptersConfig, CleaningConfig
from tests.fixtures.planting import chapter_tuples, planted_in_chapters
from tests.fixtures.reprinting import SETTINGS, processed, read_shared

KEEP = CorpusSettings("auto", CleaningConfig(footnotes="keep"), ChaptersConfig())
BODY = "He said something in French, {}, and smiled at her."


def _note_paragraphs(text: str) -> list[str]:
    """Paragraphs indented 5 or 6 spaces, continued at 5: the layout of the book's notes."""
    paragraphs = re.split(r"\n[ \t]*\n", text)
    return [p.strip() for p in paragraphs if re.fullmatch(r" {5,6}\S.*(?:\n {5}\S.*)*", p)]


def processed_with(doc: SourceDocument, settings: CorpusSettings) -> Book:
    book, report = process_document(doc, settings)
    assert book is not None, report.excluded
    return book


def test_war_and_peace_notes_go_and_verses_and_the_table_stay(shared_corpora: Path) -> None:
    doc = read_shared(shared_corpora, "en_pg_stripped", "war_and_peace.txt")
    book, report = process_document(doc, SETTINGS)
    assert book is not None
    assert len(_note_paragraphs(doc.text)) > 100
    # Two notes stay: the translations of two French poems come after the verse, not
    # after body text.
    left = [note for chapter in book.chapters for note in _note_paragraphs(chapter.text)]
    assert [note.split()[0] for note in left] == ["Death", "Poisonous"]
    assert report.removed["en/unmarked-footnote"] >= 100
    body = "\n".join(c.text for c in book.chapters)
    assert "Forty thousand men massacred" not in body
    assert "The most fascinating woman in Petersburg." not in body
    # Marked notes whose reference stands after a comma go by their layout, with it.
    assert "feels que c'est grand, and his soul" in body
    assert "Maison de ma Mère, he" in body
    # Verses indented 3 and 4 spaces, and the table of numbers, are the book's own.
    assert "    Fetching water clear and sweet," in body
    assert "   At nighttime in the moon's fair glow" in body
    assert "      20   30   40   50   60   70   80   90" in body
    assert len(book.chapters) == len(processed_with(doc, KEEP).chapters)


def test_keep_footnotes_keeps_the_unmarked_ones_too(shared_corpora: Path) -> None:
    doc = read_shared(shared_corpora, "en_pg_stripped", "war_and_peace.txt")
    book, report = process_document(doc, KEEP)
    assert book is not None and "en/unmarked-footnote" not in report.removed
    body = "\n".join(c.text for c in book.chapters)
    assert "The most fascinating woman in Petersburg." in body


def test_planted_notes_in_a_held_out_book(shared_corpora: Path) -> None:
    doc = read_shared(shared_corpora, "en_pg_stripped", "pride_and_prejudice.txt")
    expected = processed(doc)

    def notes(i: int) -> str:
        return (
            f"(2)\n\n      The translation of the first line, number {i}.\n\n"
            f"      (2) The second translation, which runs on to a\n     second line."
        )

    planted, count = planted_in_chapters(doc, expected, notes, "paragraph")
    book, report = process_document(planted, SETTINGS)
    assert book is not None
    assert chapter_tuples(book) == chapter_tuples(expected)
    assert report.removed["en/unmarked-footnote"] == count
    assert report.removed["en/symbol-footnote"] == 2 * count


def _book(notes: list[str], body_indent: str = "") -> str:
    parts = []
    for k, note in enumerate(notes):
        parts += [body_indent + "Then they walked on.", body_indent + "It was late."]
        parts += [body_indent + BODY.format(f"phrase {k}") + "(2)", note, f"      (2) Note {k}."]
    return "\n\n".join(parts) + "\n"


def test_unmarked_notes_are_found_after_body_text() -> None:
    text = _book([f"      Translation {k}." for k in range(3)])
    removed = [text[start:end] for start, end in unmarked_footnotes(text)]
    assert removed == [f"      Translation {k}.\n\n" for k in range(3)]


def test_too_few_paired_notes_teach_nothing() -> None:
    text = _book([f"      Translation {k}." for k in range(2)])
    assert unmarked_footnotes(text) == []


def test_nothing_is_learned_where_body_text_is_indented_like_the_notes() -> None:
    text = _book([f"      Translation {k}." for k in range(3)], body_indent="      ")
    assert unmarked_footnotes(text) == []


def test_other_indentation_and_paragraphs_after_verse_stay() -> None:
    verse = "    Sing, O muse,\n    of the wrath"
    text = _book([verse, f"{verse}\n\n      After the verse.", "   Three spaces."])
    assert unmarked_footnotes(text) == []


def test_a_layout_most_notes_do_not_share_teaches_nothing() -> None:
    # Two notes flush with the body and one indented 4: a verse line at 4 spaces stays.
    text = _book(["    Sing, O muse, of the wrath."] * 3)
    text = text.replace("      (2) Note 0.", "    (2) Note 0.")
    for k in (1, 2):
        text = text.replace(f"      (2) Note {k}.", f"(2) Note {k}.")
    assert unmarked_footnotes(text) == []


def test_notes_continued_at_the_body_margin_teach_nothing() -> None:
    text = _book(["      An indented opening line\nwhose paragraph goes on at the margin."] * 3)
    for k in range(3):
        text = text.replace(f"      (2) Note {k}.", f"      (2) Note {k},\ncontinued.")
    assert unmarked_footnotes(text) == []


def test_a_marked_note_goes_by_its_layout_only_with_its_reference() -> None:
    """`(3)` after a comma is refused by the pairing; the layout takes it with its
    reference. A `(4)` note whose mark the body text above lacks stays."""
    text = _book([f"      Translation {k}." for k in range(3)])
    text += "\nHe spoke of it, (3) and left.\n\n      (3) Third note.\n\n      (4) Orphan.\n"
    removed = [text[start:end] for start, end in unmarked_footnotes(text)]
    assert " (3)" in removed and "      (3) Third note.\n\n" in removed
    assert not any("Orphan" in piece for piece in removed)
    # An indented scene break is no marked note, even with a `*` in the text above.
    breaks = text + "\nA *starred* word.\n\n      * * *\n"
    assert not any("* * *" in breaks[start:end] for start, end in unmarked_footnotes(breaks))
