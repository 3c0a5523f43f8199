"""An EPUB's title and copyright pages are front matter by the package's own word
(landmarks or guide, `epub:type`, `linear="no"`), never chapter 1 (issue 36)."""

from __future__ import annotations

from pathlib import Path

import pytest
from ebooklib import epub

from lengthwise.builders.corpus import CorpusSettings, process_document
from lengthwise.builders.sources.epub import read_epub
from lengthwise.builders.sources.local import read_local
from lengthwise.records import SourceDocument
from lengthwise.spec import ChaptersConfig, CleaningConfig

BODY = (
    "The rain had not stopped for three days, and the river was rising under the old "
    "bridge where the miller's children liked to fish in the summer evenings. "
) * 12
TITLE_PAGE = "The Miller of Hollow Bridge. A Novel. By Anne Example."
COPYRIGHT = "Copyright 2026 Example Press. All rights reserved. ISBN 000-0-00-000000-0."


def write_epub(path: Path, how: str) -> Path:
    """An English EPUB: title page, copyright page, three chapters, all in the TOC.

    `how` says how the package names its front matter: "guide" (OPF guide and EPUB 3
    landmarks, as ebooklib writes both), "epub-type" (on the pages themselves) or
    "linear-no" (spine entries outside the reading order)."""
    book = epub.EpubBook()
    book.set_identifier("front-matter-test")
    book.set_title("The Miller of Hollow Bridge")
    book.set_language("en")
    semantics = {"title": "titlepage", "copyright": "copyright-page"}
    pages = []
    for name, text in (("title", TITLE_PAGE), ("copyright", COPYRIGHT)):
        page = epub.EpubHtml(title=name.title(), file_name=f"{name}.xhtml", lang="en")
        typed = f' epub:type="frontmatter {semantics[name]}"' if how == "epub-type" else ""
        page.content = f"<section{typed}><p>{text}</p></section>"
        pages.append(page)
    chapters = []
    for number in (1, 2, 3):
        chapter = epub.EpubHtml(title=f"Chapter {number}", file_name=f"ch{number}.xhtml")
        chapter.content = f"<h1>Chapter {number}</h1><p>{BODY}</p>"
        chapters.append(chapter)
    for item in (*pages, *chapters):
        book.add_item(item)
    book.toc = [
        epub.Link(item.file_name, item.title, item.file_name) for item in (*pages, *chapters)
    ]
    if how == "guide":
        book.guide = [
            {"href": "title.xhtml", "title": "Title Page", "type": "title-page"},
            {"href": "copyright.xhtml", "title": "Copyright", "type": "copyright-page"},
            {"href": "ch1.xhtml", "title": "Start", "type": "text"},
        ]
    book.add_item(epub.EpubNcx())
    book.add_item(epub.EpubNav())
    front = [(page.id, "no") for page in pages] if how == "linear-no" else pages
    book.spine = ["nav", *front, *chapters]
    epub.write_epub(str(path), book)
    return path


@pytest.mark.parametrize("how", ["guide", "epub-type", "linear-no"])
def test_title_and_copyright_pages_are_not_chapters(tmp_path: Path, how: str) -> None:
    path = write_epub(tmp_path / "miller.epub", how)
    read = read_epub(path.read_bytes(), str(path))
    assert [entry.title for entry in read.toc] == ["Chapter 1", "Chapter 2", "Chapter 3"]
    assert TITLE_PAGE not in read.text and COPYRIGHT not in read.text
    if how != "linear-no":
        note = next(w for w in read.warnings if "front matter left out" in w)
        assert "title.xhtml" in note and "copyright.xhtml" in note

    [doc] = [d for d in read_local(path) if isinstance(d, SourceDocument)]
    settings = CorpusSettings("auto", CleaningConfig(), ChaptersConfig(min_chapters=1))
    book, report = process_document(doc, settings)
    assert book is not None, report.excluded
    assert [c.heading for c in book.chapters] == ["Chapter 1", "Chapter 2", "Chapter 3"]
    assert all(TITLE_PAGE not in c.text and COPYRIGHT not in c.text for c in book.chapters)


def test_a_book_of_front_matter_only_keeps_its_text(tmp_path: Path) -> None:
    """Pages all typed front matter are still the book's only text: nothing is left out."""
    book = epub.EpubBook()
    book.set_identifier("only-front")
    book.set_title("Only")
    book.set_language("en")
    page = epub.EpubHtml(title="Title", file_name="title.xhtml", lang="en")
    page.content = f'<section epub:type="titlepage"><p>{TITLE_PAGE}</p></section>'
    book.add_item(page)
    book.add_item(epub.EpubNcx())
    book.add_item(epub.EpubNav())
    book.spine = ["nav", page]
    epub.write_epub(str(tmp_path / "only.epub"), book)
    read = read_epub((tmp_path / "only.epub").read_bytes(), "only.epub")
    assert TITLE_PAGE in read.text
