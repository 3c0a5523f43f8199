"""English books whose chapters are headed by a number alone, printed as modern editions
and e-book conversions print it (`ONE`, `Twenty-One`, `— 12 —`, `* 3 *`, `§ 4`, `[7]`):
once excluded as "no chapter headings found", and the decorated forms were first
removed as page numbers by learned boilerplate.

Written against a Pride and Prejudice copy; these tests use Tom Sawyer, Alice and Moby
Dick, which were not looked at for it, through the whole corpus step (cleaning
included)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from lengthwise.builders.corpus import CorpusSettings, process_document
from lengthwise.builders.sources.local import read_local
from lengthwise.records import Book, SourceDocument
from lengthwise.spec import ChaptersConfig, CleaningConfig

_ONES = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_TENS = ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def _words(n: int) -> str:
    if n < 20:
        return _ONES[n]
    if n < 100:
        return _TENS[n // 10] + (f"-{_ONES[n % 10]}" if n % 10 else "")
    return f"{_ONES[n // 100]} hundred" + (f" {_words(n % 100)}" if n % 100 else "")


FORMS: dict[str, Callable[[int], str]] = {
    "words in capitals": lambda n: _words(n).upper(),
    "words in title case": lambda n: _words(n).title(),
    "dashed": lambda n: f"— {n} —",
    "starred": lambda n: f"* {n} *",
    "section sign": lambda n: f"§ {n}",
    "bracketed": lambda n: f"[{n}]",
}
SETTINGS = CorpusSettings("auto", CleaningConfig(), ChaptersConfig())


def _book(doc: SourceDocument) -> Book:
    book, report = process_document(doc, SETTINGS)
    assert book is not None, report.excluded
    return book


def _reprinted(doc: SourceDocument, original: Book, form: Callable[[int], str]) -> SourceDocument:
    """`doc` with each chapter heading's first line replaced by its number in `form`."""
    numbers = {c.heading.split("\n")[0]: c.number for c in original.chapters if c.number}

    def line(match: re.Match[str]) -> str:
        number = numbers.get(match.group(0).strip())
        return match.group(0) if number is None else form(number)

    text = re.sub(r"(?m)^[^\n]+$", line, doc.text.replace("\r\n", "\n"))
    return SourceDocument(**{**vars(doc), "text": text})


def _read(shared_corpora: Path, name: str) -> SourceDocument:
    [doc] = read_local(shared_corpora / "en_pg_stripped" / name)
    assert isinstance(doc, SourceDocument)
    return doc


@pytest.mark.parametrize("name", ["tom_sawyer.txt", "alice_in_wonderland.txt"])
@pytest.mark.parametrize("form", list(FORMS))
def test_bare_number_chapters_are_the_originals(shared_corpora: Path, name: str, form: str) -> None:
    doc = _read(shared_corpora, name)
    original = _book(doc)
    reprinted = _book(_reprinted(doc, original, FORMS[form]))
    assert [c.number for c in reprinted.chapters] == [c.number for c in original.chapters]
    assert [c.text for c in reprinted.chapters] == [c.text for c in original.chapters]


@pytest.mark.parametrize("form", ["words in capitals", "dashed"])
def test_moby_dicks_numbering_survives_bare_headings(shared_corpora: Path, form: str) -> None:
    """Moby Dick keeps its 135 numbered chapters and Epilogue. (Where the printed heading
    held the title, a short first line of the body may now read as the title: Fore-Top.)"""
    doc = _read(shared_corpora, "moby_dick.txt")
    original = _book(doc)
    reprinted = _book(_reprinted(doc, original, FORMS[form]))
    assert [c.number for c in reprinted.chapters] == [c.number for c in original.chapters]
    same = sum(a.text == b.text for a, b in zip(original.chapters, reprinted.chapters, strict=True))
    assert same >= len(original.chapters) - 6


def test_page_numbers_between_paragraphs_every_page_are_still_page_markers(
    shared_corpora: Path,
) -> None:
    """The same `— 12 —` shape printed every page (about 2,000 characters) is furniture,
    even in a book with keyword headings, and the chapters are untouched."""
    doc = _read(shared_corpora, "tom_sawyer.txt")
    original = _book(doc)
    paragraphs = doc.text.replace("\r\n", "\n").split("\n\n")
    pieces, since, page = [], 0, 0
    for paragraph in paragraphs:
        pieces.append(paragraph)
        since += len(paragraph)
        if since >= 2_000:
            page += 1
            pieces.append(f"— {page} —")
            since = 0
    marked, report = process_document(
        SourceDocument(**{**vars(doc), "text": "\n\n".join(pieces)}), SETTINGS
    )
    assert marked is not None and page > 150
    assert report.removed["learned/page-marker"] == page
    assert [c.text for c in marked.chapters] == [c.text for c in original.chapters]


def test_sparse_page_numbers_that_cut_sentences_are_still_page_markers(
    shared_corpora: Path,
) -> None:
    """Page numbers kept only every few pages (about 7,000 characters apart) still fall
    where the page ended, inside sentences: they are page markers, not chapter numbers."""
    doc = _read(shared_corpora, "tom_sawyer.txt")
    paragraphs = doc.text.replace("\r\n", "\n").split("\n\n")
    pieces, since, page = [], 0, 0
    for paragraph in paragraphs:
        since += len(paragraph)
        cut = paragraph.find(" ", len(paragraph) // 2)
        if since >= 7_000 and len(paragraph) > 400 and paragraph[cut - 1].isalpha():
            page += 1
            paragraph = f"{paragraph[:cut]}\n\n— {page} —\n\n{paragraph[cut + 1 :]}"
            since = 0
        pieces.append(paragraph)
    _, report = process_document(
        SourceDocument(**{**vars(doc), "text": "\n\n".join(pieces)}), SETTINGS
    )
    assert page > 40
    assert report.removed["learned/page-marker"] == page
