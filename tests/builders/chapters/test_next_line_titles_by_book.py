"""Titles on the line below the heading are believed by book, not line by line.

A line below a bare heading that looks like a title (short, capitalised words, a blank
line after it) was taken for the title wherever it appeared. War and Peace prints no
titles, but one chapter opens with a one-sentence paragraph right below its heading
(`CHAPTER VIII` / `Princess Mary was not in Moscow and out of danger as Prince Andrew
supposed.`): that sentence left the chapter's text for its heading.

Written against War and Peace; Moby Dick's reprints, The Scarlet Letter and Little Women
were not looked at for it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lengthwise.builders.chapters.next_line_titles import MIN_TITLED_SHARE, looks_like_title
from lengthwise.records import Chapter
from tests.fixtures.reprinting import processed, read_shared, reprint_headings

EN = "en_pg_stripped"


def test_a_lone_sentence_below_a_heading_stays_in_the_chapter(shared_corpora: Path) -> None:
    book = processed(read_shared(shared_corpora, EN, "war_and_peace.txt"))
    [chapter] = [c for c in book.chapters if c.text.startswith("Princess Mary was not in Moscow")]
    assert chapter.heading == "CHAPTER VIII" and chapter.title == ""
    assert not any("\n" in c.heading for c in book.chapters)


@pytest.mark.parametrize(("name", "chapters"), [("pg25344.txt", 24), ("pg514.txt", 47)])
def test_books_printing_every_title_below_the_heading_keep_them(
    shared_corpora: Path, name: str, chapters: int
) -> None:
    book = processed(read_shared(shared_corpora, "en_pg_raw", name))
    titled = [c for c in book.chapters if "\n" in c.heading]
    assert len(titled) == chapters
    assert all(c.title == c.heading.split("\n")[1].rstrip(".") for c in titled)


@pytest.mark.parametrize("every", [1, 2, 4, 8])
def test_titles_below_are_kept_where_the_book_prints_enough_of_them(
    shared_corpora: Path, every: int
) -> None:
    doc = read_shared(shared_corpora, EN, "moby_dick.txt")
    original = processed(doc)

    def heading(chapter: Chapter) -> str:
        below = (chapter.number or 0) % every == 0
        return f"CHAPTER {chapter.number}." + (f"\n{chapter.title}." if below else "")

    book = processed(reprint_headings(doc, original, heading))
    assert [c.number for c in book.chapters] == [c.number for c in original.chapters]
    numbered = [(c, o) for c, o in zip(book.chapters, original.chapters, strict=True) if c.number]
    # (titles the line test itself refuses, too long or with a `;`, are not this test's)
    printed_below = [
        (c, o) for c, o in numbered if (c.number or 0) % every == 0 and looks_like_title(o.title)
    ]
    if 1 / every >= MIN_TITLED_SHARE:
        assert all(c.title == o.title and c.text == o.text for c, o in printed_below)
    else:  # too few to be the book's way of printing titles: they stay text, not lost
        for chapter, before in printed_below:
            assert chapter.title == ""
            assert chapter.text.startswith(f"{before.title}.\n") and chapter.text.endswith(
                before.text
            )
