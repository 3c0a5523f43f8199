"""Headings and contents entries too long for a hard-wrapped line.

A title longer than the wrap width goes on over the next line or two. Before this was
handled, the rest of the title opened the chapter's text (Monte Cristo's chapter 61
began `Peaches`, The Phantom of the Opera's chapter XVI `Relations with the Opera
Ghost`), and a contents list whose entries wrapped stopped looking like a contents
list: Tom Sawyer hard-wrapped at 66 columns came out with its last three contents
entries as chapters 33-35 before chapter 1, at 50 columns with 18 such chapters.

Written against Tom Sawyer (its contents list), Monte Cristo and The Phantom of the
Opera (their wrapped headings), and Sherlock Holmes at 40 columns (titles in
capitals). Moby Dick, Alice, Pride and Prejudice and 西游记 were not looked at for it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lengthwise.builders.corpus import CorpusSettings, process_document
from lengthwise.records import Book
from lengthwise.spec import ChaptersConfig, CleaningConfig
from tests.fixtures.reprinting import SETTINGS, hard_wrapped, processed, read_shared, with_text

EN = "en_pg_stripped"
UNWRAP_OFF = CorpusSettings("auto", CleaningConfig(unwrap_paragraphs=False), ChaptersConfig())


def _words(text: str) -> str:
    return "".join(text.split())


def _wrapped_book(shared: Path, folder: str, name: str, width: int, unwrap: bool) -> Book:
    doc = read_shared(shared, folder, name)
    book, report = process_document(
        with_text(doc, hard_wrapped(doc.text, width, cjk=folder.startswith("zh"))),
        SETTINGS if unwrap else UNWRAP_OFF,
    )
    assert book is not None, report.excluded
    return book


@pytest.mark.parametrize("unwrap", [True, False], ids=["unwrapped", "left-wrapped"])
@pytest.mark.parametrize("width", [66, 50, 40])
def test_a_wrapped_contents_list_gives_no_chapters(
    shared_corpora: Path, width: int, unwrap: bool
) -> None:
    reference = processed(read_shared(shared_corpora, EN, "tom_sawyer.txt"))
    book = _wrapped_book(shared_corpora, EN, "tom_sawyer.txt", width, unwrap)
    assert len(book.chapters) == 35
    assert [c.number for c in book.chapters] == [c.number for c in reference.chapters]
    if unwrap:  # left wrapped, a long title's last line opens its chapter's text
        # Every chapter holds the same words as in the book printed a paragraph per line.
        words = [_words(c.text) for c in book.chapters]
        assert words == [_words(c.text) for c in reference.chapters]


@pytest.mark.parametrize(
    ("name", "number", "title", "opening"),
    [
        (
            "pg1184.txt",
            61,
            "How a Gardener May Get Rid of the Dormice that Eat His Peaches",
            "Not on the same night",
        ),
        (
            "pg175.txt",
            16,
            "Mme. Giry's Astounding Revelations as to Her Personal Relations with the Opera Ghost",
            "Before following the commissary",
        ),
        (
            "pg175.txt",
            21,
            "Interesting and Instructive Vicissitudes of a Persian in the Cellars of the Opera",
            "THE PERSIAN'S NARRATIVE",
        ),
    ],
)
def test_a_wrapped_heading_keeps_its_whole_title_on_real_files(
    shared_corpora: Path, name: str, number: int, title: str, opening: str
) -> None:
    book = processed(read_shared(shared_corpora, "en_pg_raw", name))
    [chapter] = [c for c in book.chapters if c.number == number]
    assert chapter.title == title
    assert chapter.text.startswith(opening)


@pytest.mark.parametrize(
    ("folder", "name", "width"),
    [
        (EN, "sherlock.txt", 40),  # written against: titles in capitals
        (EN, "moby_dick.txt", 40),
        (EN, "alice_in_wonderland.txt", 40),
        (EN, "pride_and_prejudice.txt", 50),
        ("zh_simplified_four_classics", "xiyouji_utf8.txt", 24),
    ],
)
@pytest.mark.parametrize("unwrap", [True, False], ids=["unwrapped", "left-wrapped"])
def test_other_books_wrapped_narrow_keep_their_chapters_and_headings(
    shared_corpora: Path, folder: str, name: str, width: int, unwrap: bool
) -> None:
    reference = processed(read_shared(shared_corpora, folder, name))
    book = _wrapped_book(shared_corpora, folder, name, width, unwrap)
    assert [c.number for c in book.chapters] == [c.number for c in reference.chapters]
    if not unwrap:  # left wrapped, a long title's last line opens its chapter's text
        return
    assert [c.heading for c in book.chapters] == [c.heading for c in reference.chapters]
    if folder == EN:  # (a site watermark wrapped over two lines stays in 西游记: not this test's)
        words = [_words(c.text) for c in book.chapters]
        assert words == [_words(c.text) for c in reference.chapters]
