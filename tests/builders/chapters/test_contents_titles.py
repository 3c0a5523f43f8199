"""Chapters headed by their title alone, cut at the titles of the book's contents list.

Shared books reprinted with each numbered heading replaced by its title alone and a
contents list of those titles after the title page. Written against 红楼梦 and Pride and
Prejudice (given titles made of each chapter's first words); these tests use 水浒传,
西游记 and Alice, which were not looked at for it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lengthwise.builders.chapters import detect_chapters
from lengthwise.builders.corpus import process_document
from lengthwise.records import Book, SourceDocument
from tests.fixtures.reprinting import SETTINGS, processed, read_shared, reprint_headings, with_text

ZH = "zh_simplified_four_classics"
EN = "en_pg_stripped"


def _titles_only(doc: SourceDocument, original: Book, contents: str | None) -> SourceDocument:
    """`doc` headed by titles alone, with a contents list (`contents` its heading) before
    the first chapter; without one when `contents` is None."""
    indent = "\u3000\u3000" if original.language == "zh" else ""
    reprinted = reprint_headings(doc, original, lambda c: indent + c.title)
    if contents is None:
        return reprinted
    numbered = [c for c in original.chapters if c.number]
    listing = contents + "\n\n" + "\n".join(c.title for c in numbered) + "\n\n\n"
    first = reprinted.text.index(indent + numbered[0].title + "\n")
    return with_text(reprinted, reprinted.text[:first] + listing + reprinted.text[first:])


@pytest.mark.parametrize(
    ("folder", "name", "contents"),
    [
        (ZH, "shuihu_utf8.txt", "目录"),
        (ZH, "xiyouji_utf8.txt", "目 录"),
        (EN, "alice_in_wonderland.txt", "CONTENTS"),
    ],
)
def test_title_headings_are_found_through_the_contents(
    shared_corpora: Path, folder: str, name: str, contents: str
) -> None:
    doc = read_shared(shared_corpora, folder, name)
    original = processed(doc)
    numbered = [c for c in original.chapters if c.number]
    book, report = process_document(_titles_only(doc, original, contents), SETTINGS)
    assert book is not None, report.excluded
    assert [c.text for c in book.chapters] == [c.text for c in numbered]
    assert [c.title for c in book.chapters] == [c.title for c in numbered]
    assert [c.number for c in book.chapters] == list(range(1, len(numbered) + 1))
    assert any("found through the contents list" in w for w in report.warnings)
    assert not report.gaps


def test_a_title_missing_from_the_text_is_a_gap(shared_corpora: Path) -> None:
    doc = read_shared(shared_corpora, ZH, "shuihu_utf8.txt")
    original = processed(doc)
    reprinted = _titles_only(doc, original, "目录")
    lost = original.chapters[10].title  # its heading line is gone from the text
    at = reprinted.text.rindex("\u3000\u3000" + lost + "\n")
    text = reprinted.text[:at] + reprinted.text[at + len(lost) + 3 :]
    book, report = process_document(with_text(doc, text), SETTINGS)
    assert book is not None, report.excluded
    assert [tuple(gap) for gap in report.gaps] == [(11, 11)]  # reported, never sampled across
    assert any("1 entries not found" in w for w in report.warnings)
    assert len(book.chapters) == len(original.chapters) - 1


def test_without_a_contents_list_title_headings_are_not_guessed(shared_corpora: Path) -> None:
    doc = read_shared(shared_corpora, ZH, "xiyouji_utf8.txt")
    original = processed(doc)
    detection = detect_chapters(_titles_only(doc, original, None).text, "zh")
    assert detection.method != "contents"
    assert len(detection.chapters) < 5
