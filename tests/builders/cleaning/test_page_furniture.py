"""Page furniture of scanned and PDF-extracted books: shared books reprinted as such text.

A printed page leaves a page number (alone on its line, or `- 12 -`), a running head
and, from PDF tools, a form feed at every page end, wherever the page ends: mostly in
the middle of a sentence. Before this was handled, bare page numbers stayed in the text
(they were taken for chapter-number headings), and each removed marker left its blank
padding behind: a paragraph cut by a page stayed two paragraphs, one ending there got
two blank lines.

Written against Pride and Prejudice and 红楼梦; these tests use Sherlock Holmes, Tom
Sawyer, 水浒传 and 西游记, which were not looked at for it. The reference for each book
is the same book hard-wrapped the same way without page furniture, so only the
furniture's effect is compared.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from lengthwise.builders.cleaning.line_rules import _line_removal
from lengthwise.builders.corpus import process_document
from lengthwise.records import Book, SourceDocument
from tests.fixtures.reprinting import (
    SETTINGS,
    hard_wrapped,
    processed,
    read_shared,
    reprint_headings,
    with_text,
)

EN = "en_pg_stripped"
ZH = "zh_simplified_four_classics"
LINES_PER_PAGE = {"en": 38, "zh": 12}


def _paginated(text: str, furniture: Callable[[int], str], every: int) -> tuple[str, int]:
    """`furniture(page)` put in after every `every` lines; the number of pages."""
    out: list[str] = []
    page = 1
    for index, line in enumerate(text.split("\n")):
        if index and index % every == 0:
            page += 1
            out.append(furniture(page))
        out.append(line)
    return "\n".join(out), page - 1


def _processed(doc: SourceDocument, text: str) -> tuple[Book, dict[str, int]]:
    book, report = process_document(with_text(doc, text), SETTINGS)
    assert book is not None, report.excluded
    return book, report.removed


def _printed_and_reference(
    shared_corpora: Path, folder: str, name: str, furniture: Callable[[int], str], wrap: bool
) -> tuple[Book, dict[str, int], Book, int]:
    """(book, its removals, reference, pages): the book printed in pages with
    `furniture`, and the reference printed alike without it (both hard-wrapped with
    `wrap`, as books printing a paragraph per line would be on paper)."""
    doc = read_shared(shared_corpora, folder, name)
    text = hard_wrapped(doc.text) if wrap else doc.text
    language = "en" if folder == EN else "zh"
    printed, pages = _paginated(text, furniture, LINES_PER_PAGE[language])
    reference, _ = _processed(doc, text)
    book, removed = _processed(doc, printed)
    assert [c.number for c in book.chapters] == [c.number for c in reference.chapters]
    return book, removed, reference, pages


def _paragraphs(book: Book) -> list[str]:
    return [p for chapter in book.chapters for p in chapter.text.split("\n\n")]


def _split_paragraphs(book: Book, reference: Book) -> list[str]:
    """Paragraph breaks of `book` where `reference` has none (a sentence cut in two)."""
    cuts = []
    for chapter, expected in zip(book.chapters, reference.chapters, strict=True):
        if chapter.text == expected.text:
            continue
        kept = set(expected.text.split("\n\n"))
        cuts += [p for p in chapter.text.split("\n\n") if p not in kept]
    return cuts


EN_FURNITURE: dict[str, Callable[[int], str]] = {
    "page number alone, padded": lambda page: f"\n{page}\n",
    "dashed page number, padded": lambda page: f"\n- {page} -\n",
    "running head with number, padded": lambda page: f"\n{page}    THE BOOK'S TITLE\n",
    # On every other page only, so too rare for "more than twice per chapter": it goes as a
    # line standing inside sentences (written against Tom Sawyer, Pride and Prejudice and
    # The Scarlet Letter set in pages; Sherlock Holmes, Moby Dick and Alice checked after).
    "running head alone on odd pages": lambda page: (
        "\nTHE BOOK'S TITLE\n" if page % 2 else f"\n{page}\n"
    ),
    "form feed": lambda page: "\f",
}


@pytest.mark.slow
@pytest.mark.parametrize("name", ["sherlock.txt", "tom_sawyer.txt"])
@pytest.mark.parametrize("form", list(EN_FURNITURE))
def test_english_page_furniture_goes_and_cut_sentences_rejoin(
    shared_corpora: Path, name: str, form: str
) -> None:
    book, removed, reference, pages = _printed_and_reference(
        shared_corpora, EN, name, EN_FURNITURE[form], wrap=True
    )
    body = "\n".join(c.text for c in book.chapters)
    assert "THE BOOK'S TITLE" not in body
    assert "\f" not in body
    # Every page's furniture is counted (a running head may go as a learned line).
    rules = (
        ("common/page-break",)
        if form == "form feed"
        else ("learned/page-marker", "learned/boilerplate-line")
    )
    assert sum(removed.get(rule, 0) for rule in rules) >= pages - 1
    # A page break that fell mid-sentence leaves no trace; at a sentence end, or at a
    # comma before a quotation, it may stay a paragraph break (a page can end where a
    # paragraph ends, and `she observed,` ends paragraphs before speech in many books).
    cuts = _split_paragraphs(book, reference)  # both halves of each: two per cut
    assert len(cuts) <= 2 * 0.05 * pages
    first_halves = [c for c in cuts if any(r.startswith(c) for r in _paragraphs(reference))]
    assert all(c.rstrip()[-1] in ".!?\"'," for c in first_halves), first_halves


ZH_FURNITURE: dict[str, Callable[[int], str]] = {
    "page number alone, padded": lambda page: f"\n{page}\n",
    "dashed page number, padded": lambda page: f"\n- {page} -\n",
    "form feed": lambda page: "\f",
}


@pytest.mark.slow
@pytest.mark.parametrize("name", ["shuihu_utf8.txt", "xiyouji_utf8.txt"])
@pytest.mark.parametrize("form", list(ZH_FURNITURE))
def test_chinese_page_furniture_goes_and_paragraphs_stay_as_they_were(
    shared_corpora: Path, name: str, form: str
) -> None:
    """These books print a paragraph per line, so every page break here falls between
    paragraphs: nothing may be joined (verse after `诗曰`, couplets ending in `；`)."""
    book, _, reference, _ = _printed_and_reference(
        shared_corpora, ZH, name, ZH_FURNITURE[form], wrap=False
    )
    differing = [
        (c.number, c.text, r.text)
        for c, r in zip(book.chapters, reference.chapters, strict=True)
        if c.text != r.text
    ]
    # At most a double blank line the book had where a page fell may become single.
    for _, text, expected in differing:
        assert text.replace("\n", "") == expected.replace("\n", "")
    assert len(differing) <= 2


def test_a_removed_line_leaves_the_narrower_gap_and_joins_sentence_halves() -> None:
    def removed(text: str) -> str:
        start = text.index("X")
        cut_start, cut_end = _line_removal(text, start, start + 1)
        return text[:cut_start] + text[cut_end:]

    prose = "and so she walked on for a long while before she said"
    # Padded unevenly where a paragraph ended: one paragraph break stays.
    assert removed("It ended.\n\nX\n\n\nA new one.") == "It ended.\n\nA new one."
    # Halves of one sentence: no break (Latin: two lines of one paragraph).
    assert removed(f"{prose}\n\nX\n\nnothing at all.") == f"{prose}\nnothing at all."
    assert removed(f"{prose}\n\nX\n\n    Nothing at all.") == f"{prose}\n\n    Nothing at all."
    zh = "他说了很多话，然后慢慢地走到门口，看了很久，"
    assert removed(f"{zh}\n\nX\n\n着外面的雨。") == f"{zh}着外面的雨。"
    # An indented line after a comma: verse, or a new paragraph.
    assert removed(f"{zh}\n\nX\n\n  只恐琼楼玉宇，") == f"{zh}\n\n  只恐琼楼玉宇，"
    # A clause mark before a capital, or a short line (a title), stays apart.
    assert removed("Tom Looking for Joe's Knife\n\nX\n\nThe Thunder Storm") == (
        "Tom Looking for Joe's Knife\n\nThe Thunder Storm"
    )
    # Before a heading the book's wider gap stays.
    assert removed("It ended.\n\nX\n\n\n\nCHAPTER II") == "It ended.\n\n\n\nCHAPTER II"


@pytest.mark.parametrize("name", ["tom_sawyer.txt", "alice_in_wonderland.txt"])
def test_bare_numbers_spaced_like_chapters_stay_headings(shared_corpora: Path, name: str) -> None:
    """Chapter numbers printed alone on their line are not page numbers: they follow
    finished paragraphs and come chapters apart."""
    doc = read_shared(shared_corpora, EN, name)
    original = processed(doc)
    reprinted = reprint_headings(doc, original, lambda chapter: str(chapter.number))
    book, report = process_document(reprinted, SETTINGS)
    assert book is not None, report.excluded
    assert [c.number for c in book.chapters] == [c.number for c in original.chapters]
    assert "learned/page-marker" not in report.removed
