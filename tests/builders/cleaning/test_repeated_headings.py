"""A chapter's heading printed again inside it: the page headers of paginated sites.

A held-out probe (invented page headers over Chinese web-novel chapters) found each page
header (`第1章 …（2/2）`, `… 第2页`, or the heading unchanged) opening a chapter of its
own: 40 chapters became 80, reported only as split or doubled numbers. The rule was
written against 三国演义 and 红楼梦; 西游记, 水浒传 and Pride and Prejudice were checked
after. Each book is reprinted from its own chapters, with a page header in the middle
of every chapter, and must give the same chapters as the reprint without them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from lengthwise.builders.cleaning.learned import BOILERPLATE_LINE, PAGE_MARKER
from lengthwise.builders.cleaning.recurring_brackets import NAME as BRACKETS
from lengthwise.builders.cleaning.repeated_headings import RULE, page_base
from lengthwise.builders.corpus import BookReport, process_document
from lengthwise.records import Book, Chapter, SourceDocument
from tests.fixtures.planting import chapter_tuples
from tests.fixtures.reprinting import SETTINGS, processed, read_shared, with_text

Header = Callable[[str], str | None]  # a chapter's heading line -> its page header


def _reprinted(doc: SourceDocument, book: Book, header: Header) -> tuple[SourceDocument, int]:
    """`doc` as a file printing `book`'s chapters, each with `header(heading)` on a line of
    its own at the paragraph break nearest the middle of its body (None: none there)."""
    parts, headers = [book.title + "\n\n\n"], 0
    for chapter in book.chapters:
        body = chapter.text
        middle = body.find("\n", len(body) // 2)
        page = header(chapter.heading) if chapter.number is not None else None
        if page is not None and middle > 0:
            body = f"{body[:middle]}\n{page}{body[middle:]}"
            headers += 1
        parts.append(f"{chapter.heading}\n\n{body}\n\n\n")
    return with_text(doc, "".join(parts)), headers


def _same_chapters(doc: SourceDocument, expected: Book) -> BookReport:
    """The report for `doc`, after checking that its chapters are `expected`'s."""
    book, report = process_document(doc, SETTINGS)
    assert book is not None
    assert chapter_tuples(book) == chapter_tuples(expected)
    return report


def _plain(doc: SourceDocument) -> tuple[SourceDocument, Book]:
    original = processed(doc)
    plain, _ = _reprinted(doc, original, lambda heading: None)
    return plain, processed(plain)


PAGE_HEADERS: dict[str, dict[str, Header]] = {
    "zh": {
        "fraction": lambda heading: f"{heading}（2/2）",
        "page": lambda heading: f"{heading} 第2页",
        "unchanged": lambda heading: heading,
    },
    "en": {
        "fraction": lambda heading: f"{heading} (2/2)",
        "page": lambda heading: f"{heading} [page 2]",
        "unchanged": lambda heading: heading,
    },
}


@pytest.mark.parametrize("style", ["fraction", "page", "unchanged"])
@pytest.mark.parametrize(
    ("folder", "name"),
    [
        ("zh_simplified_four_classics", "xiyouji_utf8.txt"),
        ("zh_simplified_four_classics", "shuihu_utf8.txt"),
        ("en_pg_stripped", "pride_and_prejudice.txt"),
    ],
)
def test_page_headers_are_removed_and_counted(
    shared_corpora: Path, folder: str, name: str, style: str
) -> None:
    doc = read_shared(shared_corpora, folder, name)
    _, expected = _plain(doc)
    paged, headers = _reprinted(doc, expected, PAGE_HEADERS[expected.language][style])
    book, report = process_document(paged, SETTINGS)
    assert book is not None
    assert headers >= 0.9 * len(expected.chapters)  # (a chapter of one paragraph gets none)
    assert chapter_tuples(book) == chapter_tuples(expected)
    # Headers that differ only in digits (`Chapter 12 (2/2)`) recur once digits are folded:
    # learned boilerplate removes them as page markers before chapters are known.
    counted = {rule: report.removed.get(rule, 0) for rule in (RULE, PAGE_MARKER)}
    assert sum(counted.values()) == headers
    assert report.duplicates == [] and report.split_numbers == []
    for rule, count in counted.items():
        learned = [line.count for line in report.learned_boilerplate if line.rule == rule]
        assert sum(learned) == count


def test_a_chapter_saved_twice_stays_a_doubled_chapter(shared_corpora: Path) -> None:
    doc = read_shared(shared_corpora, "zh_simplified_four_classics", "xiyouji_utf8.txt")
    plain, expected = _plain(doc)
    fifth: Chapter = next(c for c in expected.chapters if c.number == 5)
    twice = f"{fifth.heading}\n\n{fifth.text}\n\n\n"
    doubled = with_text(plain, plain.text.replace(twice, twice + twice))
    report = _fifth_twice_untouched(plain, doubled)
    assert report.duplicates == [5]


def test_a_chapter_printed_in_parts_stays_split(shared_corpora: Path) -> None:
    """`（上）`/`（下）` are part marks, not page marks: the chapter is printed in two
    parts, which the report lists as a split number."""
    doc = read_shared(shared_corpora, "zh_simplified_four_classics", "xiyouji_utf8.txt")
    plain, expected = _plain(doc)
    fifth = next(c for c in expected.chapters if c.number == 5)
    middle = fifth.text.find("\n", len(fifth.text) // 2)
    halves = f"{fifth.heading}（上）\n\n{fifth.text[:middle]}\n\n{fifth.heading}（下）\n\n"
    parted = with_text(
        plain, plain.text.replace(f"{fifth.heading}\n\n{fifth.text[:middle]}\n", halves)
    )
    report = _fifth_twice_untouched(plain, parted)
    assert report.split_numbers == [5]


def _fifth_twice_untouched(plain: SourceDocument, changed: SourceDocument) -> BookReport:
    """The report for `changed` (which differs from `plain`), after checking that it holds
    two chapters numbered 5 and that no heading line was removed as a page header."""
    assert changed.text != plain.text
    book, report = process_document(changed, SETTINGS)
    assert book is not None
    assert [c.number for c in book.chapters].count(5) == 2
    assert RULE not in report.removed
    return report


@pytest.mark.parametrize(
    ("line", "base"),
    [("第1章 风起（2/2）", "第1章 风起"), ("第1章 风起 第2页", "第1章 风起"),
     ("第一回  甄士隐 (第二页)", "第一回 甄士隐"), ("CHAPTER V [page 2]", "CHAPTER V"),
     ("第五回（上）", "第五回（上）"), ("Chapter 12", "Chapter 12")],
)  # fmt: skip
def test_page_base(line: str, base: str) -> None:
    assert page_base(line) == base


def test_a_chapter_saved_twice_inside_one_chapter_keeps_its_heading_line(
    shared_corpora: Path,
) -> None:
    """The copy's heading set tight against the text above is no chapter of its own, so
    the copy sits inside the chapter: its heading line stays, showing the doubling."""
    doc = read_shared(shared_corpora, "en_pg_stripped", "pride_and_prejudice.txt")
    plain, expected = _plain(doc)
    fifth = next(c for c in expected.chapters if c.number == 5)
    printed = f"{fifth.heading}\n\n{fifth.text}"
    doubled = with_text(plain, plain.text.replace(printed, f"{printed}\n{printed}"))
    assert doubled.text != plain.text
    book, report = process_document(doubled, SETTINGS)
    assert book is not None
    [chapter] = [c for c in book.chapters if c.number == 5]
    assert f"\n{fifth.heading}\n" in chapter.text
    assert RULE not in report.removed


@pytest.mark.parametrize(
    ("name", "notice"),
    [("xiyouji_utf8.txt", "本章未完，请点击下一页继续阅读"),
     # held out: written before this book and notice were tried
     ("shuihu_utf8.txt", "（本章未完，点击下一页继续阅读）")],
)  # fmt: skip
def test_a_continue_notice_before_each_page_header_goes_too(
    shared_corpora: Path, name: str, notice: str
) -> None:
    """Paginated sites end each page with a notice that the chapter goes on: a line in
    the middle of every chapter, punctuated like prose, holding site words (下一页)."""
    doc = read_shared(shared_corpora, "zh_simplified_four_classics", name)
    _, expected = _plain(doc)
    paged, headers = _reprinted(doc, expected, lambda heading: f"{notice}\n{heading}（2/2）")
    report = _same_chapters(paged, expected)
    assert report.removed[RULE] == headers
    # (a bracketed notice goes by the rule for recurring bracketed lines)
    assert report.removed.get(BOILERPLATE_LINE, 0) + report.removed.get(BRACKETS, 0) == headers


def test_a_continue_notice_without_page_headers_goes_too(shared_corpora: Path) -> None:
    """The same notice where the next page prints no heading: a line in the middle of
    every chapter, far from the chapter edges; its site words and recurrence decide."""
    doc = read_shared(shared_corpora, "zh_simplified_four_classics", "sanguo_utf8.txt")
    _, expected = _plain(doc)
    notice = "本章未完，请点击下一页继续阅读"
    paged, notices = _reprinted(doc, expected, lambda heading: notice)
    report = _same_chapters(paged, expected)
    assert report.removed[BOILERPLATE_LINE] == notices
