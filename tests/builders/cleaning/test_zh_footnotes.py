"""An annotated Chinese edition's notes sections and their markers (`zh/footnotes`).

Written against notes planted into 西游记 and 水浒传; checked here on 红楼梦 and 三国演义
(simplified) and 三国演义 in traditional script (`註釋` is matched through the folded
view), none looked at while writing: chapters identical to the book without notes, each section
and marker counted.
"""

from __future__ import annotations

from pathlib import Path

import opencc
import pytest

from lengthwise.builders.corpus import CorpusSettings, process_document
from lengthwise.records import SourceDocument
from lengthwise.spec import ChaptersConfig, CleaningConfig
from tests.fixtures.planting import chapter_tuples, planted_in_chapters
from tests.fixtures.reprinting import SETTINGS, processed, read_shared, with_text

RULE = "zh/footnotes"
FORMS = [("注释：", "〔{}〕"), ("【注释】", "[{}]"), ("注：", "①②③"), ("", "〔{}〕"), ("", "①②③")]


def _mark(form: str, n: int) -> str:
    return form[n - 1] if "{}" not in form else form.format(n)


def _planted(doc: SourceDocument, heading: str, mark: str) -> tuple[SourceDocument, int]:
    """Each chapter gets a marker mid-chapter and two notes at its end (under `heading`,
    or as its last lines when `heading` is empty)."""
    book = processed(doc)
    with_marks, marked = planted_in_chapters(doc, book, lambda _: _mark(mark, 1), "middle")
    above = f"\n\n{heading}" if heading else "\n"
    notes = f"{above}\n{_mark(mark, 1)}某某：古代官名。\n{_mark(mark, 2)}又见前回。"
    planted, sections = planted_in_chapters(with_marks, book, lambda _: notes, "end")
    return planted, marked + sections


@pytest.mark.parametrize(("heading", "mark"), FORMS)
@pytest.mark.parametrize("name", ["hongloumeng_utf8.txt", "sanguo_utf8.txt"])
def test_notes_and_their_markers_go(
    shared_corpora: Path, name: str, heading: str, mark: str
) -> None:
    doc = read_shared(shared_corpora, "zh_simplified_four_classics", name)
    planted, count = _planted(doc, heading, mark)
    book, report = process_document(planted, SETTINGS)
    assert book is not None
    assert chapter_tuples(book) == chapter_tuples(processed(doc))
    assert report.removed[RULE] == count


def test_traditional_notes_go(shared_corpora: Path) -> None:
    """三国演义 converted to traditional script (the flattened traditional books have no
    line breaks to plant at)."""
    to_traditional = opencc.OpenCC("s2t")
    simplified = read_shared(shared_corpora, "zh_simplified_four_classics", "sanguo_utf8.txt")
    doc = with_text(simplified, to_traditional.convert(simplified.text))
    heading = to_traditional.convert("注释：")
    assert heading == "註釋："
    planted, count = _planted(doc, heading, "〔{}〕")
    book, report = process_document(planted, SETTINGS)
    assert book is not None
    assert chapter_tuples(book) == chapter_tuples(processed(doc))
    assert report.removed[RULE] == count


def test_markers_without_a_notes_section_and_keep_stay(shared_corpora: Path) -> None:
    doc = read_shared(shared_corpora, "zh_simplified_four_classics", "sanguo_utf8.txt")
    expected = processed(doc)
    marked, count = planted_in_chapters(doc, expected, lambda _: "[1]", "middle")
    book, report = process_document(marked, SETTINGS)
    assert book is not None and RULE not in report.removed
    assert sum(c.text.count("[1]") for c in book.chapters) == count
    keep = CorpusSettings("auto", CleaningConfig(footnotes="keep"), ChaptersConfig())
    planted, _ = _planted(doc, "注释：", "〔{}〕")
    book, report = process_document(planted, keep)
    assert book is not None and RULE not in report.removed
    assert sum("古代官名" in c.text for c in book.chapters) == len(expected.chapters)


@pytest.mark.parametrize(
    ("chapters", "first", "where"),
    [
        ({5, 40}, 1, "end"),  # two chapters ending on a numbered list: no habit
        (set(range(200)), 2, "end"),  # numbered from 2: no note run
        (set(range(200)), 1, "middle"),  # the story goes on after the list
    ],
)
def test_numbered_lines_that_are_no_notes_stay(
    shared_corpora: Path, chapters: set[int], first: int, where: str
) -> None:
    doc = read_shared(shared_corpora, "zh_simplified_four_classics", "sanguo_utf8.txt")
    expected = processed(doc)
    lines = f"\n\n〔{first}〕其一，整兵。\n〔{first + 1}〕其二，筑城。"
    planted, count = planted_in_chapters(
        doc, expected, lambda i: lines if i in chapters else "", where
    )
    book, report = process_document(planted, SETTINGS)
    assert book is not None and RULE not in report.removed
    assert sum("其一，整兵。" in c.text for c in book.chapters) == count
