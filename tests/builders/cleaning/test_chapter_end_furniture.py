"""Chapter furniture a held-out probe found left in: end markers glued to the last
sentence (`（本章完）`), labelled author's notes at chapter ends (`PS：…`, `作者注：…`) and
a page line that never changes (`〖当前第1/2页〗`).

The rules were written against 西游记 and 水浒传 with invented furniture; these tests use
红楼梦 and 三国演义, which were not looked at while writing them: every chapter stays as
the book printed it (numbers, headings, bodies), and each piece is counted.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from lengthwise.builders.cleaning.chapter_end_signatures import is_end_marker
from lengthwise.builders.cleaning.learned import LearnedLine
from lengthwise.builders.corpus import BookReport, process_document
from lengthwise.records import Book, SourceDocument
from tests.fixtures.planting import chapter_tuples, planted_in_chapters
from tests.fixtures.reprinting import SETTINGS, processed, read_shared

BOOKS = ["hongloumeng_utf8.txt", "sanguo_utf8.txt"]
# Distinct three-character asides, one per chapter.
ASIDES = (
    "天地玄黄宇宙洪荒日月盈昃辰宿列张寒来暑往秋收冬藏闰余成岁律吕调阳云腾致雨露结为霜金生丽水"
    "玉出昆冈剑号巨阙珠称夜光果珍李柰菜重芥姜海咸河淡鳞潜羽翔龙师火帝鸟官人皇始制文字乃服衣裳"
    "推位让国有虞陶唐吊民伐罪周发殷汤坐朝问道垂拱平章"
)
NOTES = ["今天出差，明天补上。", "这一章写得有点赶，见谅。", "下周开始恢复每日两更。"]


def _learned(report: BookReport, rule: str) -> list[LearnedLine]:
    return [line for line in report.learned_boilerplate if line.rule == rule]


def _book(shared_corpora: Path, name: str) -> tuple[SourceDocument, Book]:
    doc = read_shared(shared_corpora, "zh_simplified_four_classics", name)
    return doc, processed(doc)


# Fullwidth brackets: planting 120 ASCII brackets would change what the book's ASCII
# punctuation repair learns elsewhere (ascii_pairs.py), not what this rule does.
@pytest.mark.parametrize("marker", ["（本章完）", "〔本章完〕", "（第一卷完）"])
@pytest.mark.parametrize("name", BOOKS)
def test_glued_end_markers_go_and_are_counted(shared_corpora: Path, name: str, marker: str) -> None:
    doc, expected = _book(shared_corpora, name)
    planted, count = planted_in_chapters(doc, expected, lambda _: marker)
    book, report = process_document(planted, SETTINGS)
    assert book is not None
    assert chapter_tuples(book) == chapter_tuples(expected)
    # A note the same everywhere may go as zh-web/recurring-brackets before detection.
    rules = ("learned/chapter-end-signature", "zh-web/recurring-brackets")
    assert sum(report.removed.get(rule, 0) for rule in rules) == count
    [learned] = [line for rule in rules for line in _learned(report, rule)]
    assert learned.line == marker


def test_different_bracketed_asides_at_chapter_ends_stay(shared_corpora: Path) -> None:
    """A story may end a chapter on a bracketed aside; only one recurring marker goes."""
    doc, expected = _book(shared_corpora, "sanguo_utf8.txt")
    planted, _ = planted_in_chapters(doc, expected, lambda i: f"（{ASIDES[i : i + 3]}）")
    book, report = process_document(planted, SETTINGS)
    assert book is not None
    assert "learned/chapter-end-signature" not in report.removed
    assert all(f"（{ASIDES[i : i + 3]}）" in c.text for i, c in enumerate(book.chapters))


def test_end_marker_shape() -> None:
    assert is_end_marker("（本章完）") and is_end_marker("(To be continued.)")
    assert not is_end_marker("「走吧。」")  # quotes close dialogue
    assert not is_end_marker("（完）又一回")
    assert not is_end_marker("（" + "长" * 30 + "）")


@pytest.mark.parametrize("label", ["PS：", "作者注：", "作者的话："])
@pytest.mark.parametrize("name", BOOKS)
def test_labelled_chapter_end_notes_go(shared_corpora: Path, name: str, label: str) -> None:
    doc, expected = _book(shared_corpora, name)
    planted, count = planted_in_chapters(
        doc, expected, lambda i: f"\n\n{label}{NOTES[i % 3]}\n{NOTES[(i + 1) % 3]}"
    )
    book, report = process_document(planted, SETTINGS)
    assert book is not None
    assert chapter_tuples(book) == chapter_tuples(expected)
    assert report.removed["zh-web/author-notice"] == count


def test_a_single_ps_in_the_story_stays(shared_corpora: Path) -> None:
    """Two chapters ending in a `PS：` line are no habit: the lines stay."""
    doc, expected = _book(shared_corpora, "hongloumeng_utf8.txt")
    planted, _ = planted_in_chapters(
        doc, expected, lambda i: "\n\nPS：信末又添一句，望速回。" if i in (5, 40) else ""
    )
    book, report = process_document(planted, SETTINGS)
    assert book is not None
    assert "zh-web/author-notice" not in report.removed
    assert sum("PS：信末又添一句" in c.text for c in book.chapters) == 2


@pytest.mark.parametrize("line", ["〖当前第1/2页〗", "［本章共3页］", "当前第1/2页"])
@pytest.mark.parametrize("name", BOOKS)
def test_a_page_line_that_never_changes_goes(shared_corpora: Path, name: str, line: str) -> None:
    doc, expected = _book(shared_corpora, name)
    planted, count = planted_in_chapters(doc, expected, lambda _: f"\n{line}", "middle")
    book, report = process_document(planted, SETTINGS)
    assert book is not None
    assert chapter_tuples(book) == chapter_tuples(expected)
    assert report.removed["learned/boilerplate-line"] == count
    [learned] = _learned(report, "learned/boilerplate-line")
    assert learned.line == line and f"{count} lines" in learned.why


def test_a_formula_line_recurring_mid_chapter_stays(shared_corpora: Path) -> None:
    """The story's own recurring lines (no bracket, no number) are not learned."""
    doc, expected = _book(shared_corpora, "sanguo_utf8.txt")
    planted, count = planted_in_chapters(doc, expected, lambda _: "\n有诗为证", "middle")
    book, report = process_document(planted, SETTINGS)
    assert book is not None
    assert "learned/boilerplate-line" not in report.removed
    assert sum("有诗为证" in c.text for c in book.chapters) >= count


# Serial chatter that varies from chapter to chapter: pleas with a clause before them,
# thanks to readers, and the unbracketed `未完待续`.
PLEAS = ["新书上传，求收藏，求推荐！", "月底了，求月票支持！", "今天有事，晚了点，求推荐票～"]
THANKS = ["感谢书友“青衫客”的打赏！", "谢谢各位书友的月票和推荐票。", "PS：感谢盟主白露为霜！"]
CONTINUED = ["未完待续……", "（未完待续，请看下章）", "未完待续"]


@pytest.mark.parametrize(
    ("lines", "rules"),
    [
        (PLEAS, ["zh-web/vote-plea"]),
        # A `PS：` opening thanks in every third chapter is a labelled note (a habit).
        (THANKS, ["zh-web/reader-thanks", "zh-web/author-notice"]),
        (CONTINUED, ["zh-web/chapter-end-marker"]),
    ],
)
@pytest.mark.parametrize("name", BOOKS)
def test_varying_serial_chatter_at_chapter_ends_goes(
    shared_corpora: Path, name: str, lines: list[str], rules: list[str]
) -> None:
    doc, expected = _book(shared_corpora, name)
    planted, count = planted_in_chapters(doc, expected, lambda i: f"\n\n{lines[i % 3]}")
    book, report = process_document(planted, SETTINGS)
    assert book is not None
    assert chapter_tuples(book) == chapter_tuples(expected)
    assert sum(report.removed.get(rule, 0) for rule in rules) == count
    assert report.removed[rules[0]] >= count * 2 // 3


def test_a_sentence_before_a_plea_and_thanks_in_the_story_stay(shared_corpora: Path) -> None:
    """A plea after a sentence end keeps the line; thanks without reader words are story."""
    doc, expected = _book(shared_corpora, "sanguo_utf8.txt")
    story = ["他说完便走了。求推荐！", "感谢丞相厚恩，无以为报。"]
    planted, _ = planted_in_chapters(doc, expected, lambda i: f"\n\n{story[i % 2]}")
    book, report = process_document(planted, SETTINGS)
    assert book is not None
    assert "zh-web/reader-thanks" not in report.removed
    assert "zh-web/vote-plea" not in report.removed
    assert all(story[i % 2] in c.text for i, c in enumerate(book.chapters))


NAMES = ["云中鹤", "小桥流水", "青衫客", "墨染", "白露为霜", "东篱", "半夏"]


@pytest.mark.parametrize(
    ("make", "where"),
    [
        (lambda i: f"\n\n本章由「{NAMES[i % 7]}」校对", "end"),
        (lambda i: f"\n录入：{NAMES[i % 7]}", "start"),
    ],
)
@pytest.mark.parametrize("name", BOOKS)
def test_credits_with_a_rotating_name_go(
    shared_corpora: Path, name: str, make: Callable[[int], str], where: str
) -> None:
    doc, expected = _book(shared_corpora, name)
    planted, count = planted_in_chapters(doc, expected, make, where)
    book, report = process_document(planted, SETTINGS)
    assert book is not None
    assert chapter_tuples(book) == chapter_tuples(expected)
    assert report.removed["learned/chapter-edge-template"] == count
    [learned] = _learned(report, "learned/chapter-edge-template")
    assert "chapter-edge lines framed" in learned.why


@pytest.mark.parametrize(
    "make",
    [
        # `回目：` before eleven varying characters is no frame (3 of 14 characters).
        lambda i: f"回目：{ASIDES[i : i + 11]}",
        # A sentence is the story's, however alike the chapters open.
        lambda i: f"且说{NAMES[i % 7]}来了。",
    ],
)
def test_edge_lines_that_are_no_template_stay(
    shared_corpora: Path, make: Callable[[int], str]
) -> None:
    doc, expected = _book(shared_corpora, "sanguo_utf8.txt")
    planted, count = planted_in_chapters(doc, expected, lambda i: f"\n{make(i)}", "start")
    book, report = process_document(planted, SETTINGS)
    assert book is not None
    assert "learned/chapter-edge-template" not in report.removed
    assert sum(make(i) in c.text for i, c in enumerate(book.chapters)) == count
