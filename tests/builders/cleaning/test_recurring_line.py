"""`learned/recurring-line`: furniture dropped into the middle of every chapter, the same
each time, goes whole and counted, whatever its words.

Found by a held-out probe of the audit (furniture invented without reading the rules,
planted into 水浒传, 三国演义, Sherlock Holmes and Tom Sawyer): a line such as `Back to top`,
`Scanned by …, proofed by …` or `本文由 网友 上传至 书海阁，仅供试读` in the middle of every
chapter survived cleaning, because the learned step took recurring lines only at chapter
edges, with a site word or a number, or more than twice per chapter. The rule was written
against those four books; these tests use 红楼梦, 西游记 and Pride and Prejudice, and
lines not used while writing it. Every chapter must stay as the book printed it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from lengthwise.builders.cleaning.learned import RECURRING_LINE
from lengthwise.builders.corpus import BookReport, process_document
from lengthwise.builders.corpus_settings import CorpusSettings
from lengthwise.records import Book, SourceDocument
from lengthwise.spec import ChaptersConfig, CleaningConfig
from tests.fixtures.planting import chapter_tuples, planted_in_chapters
from tests.fixtures.reprinting import SETTINGS, processed, read_shared

ZH = ("zh_simplified_four_classics", "hongloumeng_utf8.txt")
ZH_2 = ("zh_simplified_four_classics", "xiyouji_utf8.txt")
EN = ("en_pg_stripped", "pride_and_prejudice.txt")


def _book(shared_corpora: Path, where: tuple[str, str]) -> tuple[SourceDocument, Book]:
    doc = read_shared(shared_corpora, *where)
    return doc, processed(doc)


def _plant(
    doc: SourceDocument, book: Book, make: Callable[[int], str], where: str = "middle"
) -> tuple[SourceDocument, int]:
    return planted_in_chapters(doc, book, make, where)


def _paragraph(doc: SourceDocument, line: str) -> str:
    """`line` as a paragraph of its own, inserted at a line end: after a blank line in a
    book that sets paragraphs apart so, on the next line in one that does not (the four
    classics: a paragraph a line)."""
    return f"\n\n{line}" if "\n\n" in doc.text[:20_000] else f"\n{line}"


def _taken(report: BookReport) -> int:
    return report.removed.get(RECURRING_LINE, 0)


@pytest.mark.parametrize(
    ("where", "line"),
    [
        (ZH, "夜读时光陪你读好书"),
        (ZH_2, "更多好书尽在书虫之家"),
        (ZH_2, "夜读时光，陪你读完每一个故事"),  # prose-shaped: a comma inside
        (EN, "Proofread by the Distributed Readers team"),
        (EN, "Return to the index of this book"),
    ],
)
def test_a_line_in_the_middle_of_every_chapter_goes(
    shared_corpora: Path, where: tuple[str, str], line: str
) -> None:
    doc, expected = _book(shared_corpora, where)
    planted, count = _plant(doc, expected, lambda _: _paragraph(doc, line))
    assert count == len(expected.chapters)
    book, report = process_document(planted, SETTINGS)
    assert book is not None
    assert chapter_tuples(book) == chapter_tuples(expected)
    assert _taken(report) == count
    [learned] = [entry for entry in report.learned_boilerplate if entry.rule == RECURRING_LINE]
    assert learned.line == line and learned.count == count
    assert f"the same in {count} of" in learned.why


def test_in_a_fifth_of_the_chapters_it_stays(shared_corpora: Path) -> None:
    """Under `learned_min_chapter_share` (a third) of the chapters: not learned."""
    doc, expected = _book(shared_corpora, ZH)
    line = "夜读时光陪你读好书"
    planted, count = _plant(doc, expected, lambda i: _paragraph(doc, line) if i % 5 == 0 else "")
    assert count == len(expected.chapters) // 5
    book, report = process_document(planted, SETTINGS)
    assert book is not None
    assert _taken(report) == 0
    assert sum(c.text.count(line) for c in book.chapters) == count


def test_a_chant_sung_many_times_per_chapter_stays(shared_corpora: Path) -> None:
    """Three times in each chapter holding it: the story's own repetition. (Prose-shaped:
    a line ending no sentence three times per chapter is a page header, another rule's.)"""
    doc, expected = _book(shared_corpora, EN)
    line = "Over the hills and far away!"
    planted, count = _plant(doc, expected, lambda _: _paragraph(doc, line) * 3)
    book, report = process_document(planted, SETTINGS)
    assert book is not None
    assert _taken(report) == 0
    assert sum(c.text.count(line) for c in book.chapters) == 3 * count


def test_a_line_whose_number_changes_stays(shared_corpora: Path) -> None:
    """Only a line printed the same each time: a diary's dated line is the story's."""
    doc, expected = _book(shared_corpora, EN)
    planted, count = _plant(
        doc, expected, lambda i: _paragraph(doc, f"The log read {i + 3} knots and a fair wind.")
    )
    book, report = process_document(planted, SETTINGS)
    assert book is not None
    assert _taken(report) == 0
    assert sum(c.text.count("knots and a fair wind.") for c in book.chapters) == count


@pytest.mark.parametrize(
    ("where", "line"),
    [
        (EN, "\u201cI beg your pardon, madam, for my intrusion.\u201d"),  # speech
        (ZH, "\u201c我们走罢，天色不早了。\u201d"),
    ],
)
def test_a_line_of_speech_stays(shared_corpora: Path, where: tuple[str, str], line: str) -> None:
    doc, expected = _book(shared_corpora, where)
    planted, count = _plant(doc, expected, lambda _: _paragraph(doc, line))
    book, report = process_document(planted, SETTINGS)
    assert book is not None
    assert _taken(report) == 0
    assert sum(c.text.count(line) for c in book.chapters) == count


def test_a_formula_ending_every_chapter_stays(shared_corpora: Path) -> None:
    """At chapter edges a prose line is the story's formula (且听下回分解), kept by
    default; the audit still shows it as a repeated line."""
    doc, expected = _book(shared_corpora, ZH)
    line = "欲知后事如何，且听下回分解。"
    planted, count = _plant(doc, expected, lambda _: _paragraph(doc, line), where="end")
    book, report = process_document(planted, SETTINGS)
    assert book is not None
    assert _taken(report) == 0
    assert sum(c.text.count(line) for c in book.chapters) == count


def test_a_short_line_stays(shared_corpora: Path) -> None:
    """Fewer than eight letters: a refrain or a scene word, not a credit."""
    doc, expected = _book(shared_corpora, EN)
    planted, count = _plant(doc, expected, lambda _: _paragraph(doc, "All hail"))
    book, report = process_document(planted, SETTINGS)
    assert book is not None
    assert _taken(report) == 0
    assert sum(c.text.count("All hail") for c in book.chapters) == count


def test_disable_rules_keeps_it(shared_corpora: Path) -> None:
    doc, expected = _book(shared_corpora, EN)
    line = "Proofread by the Distributed Readers team"
    planted, count = _plant(doc, expected, lambda _: _paragraph(doc, line))
    settings = CorpusSettings(
        "auto", CleaningConfig(disable_rules=[RECURRING_LINE]), ChaptersConfig()
    )
    book, report = process_document(planted, settings)
    assert book is not None
    assert _taken(report) == 0
    assert sum(c.text.count(line) for c in book.chapters) == count
