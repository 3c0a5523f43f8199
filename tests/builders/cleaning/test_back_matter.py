"""Back matter after the story, from sources other than Project Gutenberg: an ebook
producer's colophon and licence page, a digital library's credits, an author note and
a list of other titles; a Chinese download file's closing frame after `全书完`.

Written against Sherlock Holmes, Tom Sawyer, 西游记 and 水浒传 (probes); tested on Pride
and Prejudice, Moby Dick, 红楼梦 and 三国演义: the chapters stay as the book printed
them, and the back matter is one counted block.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lengthwise.builders.corpus import process_document
from tests.fixtures.planting import chapter_tuples
from tests.fixtures.reprinting import SETTINGS, processed, read_shared, with_text

EN_BACK_MATTER = {
    "colophon": "Colophon\n\nThis ebook was produced for\nan ebook project\nby\nJane Doe.\n\n"
    "The first edition of this ebook was released on\nMay 1, 2020.\n\n\nUncopyright\n\n"
    "May you do good and not evil.\nThis ebook is in the public domain in the United States.",
    "digital edition": "About this digital edition\n\nThis e-book comes from an online "
    "library built by volunteers.\n\nThe following users contributed to this book:\nAlice\nBob",
    "author": "ABOUT THE AUTHOR\n\nA. Writer (1850-1910) was born in a small town.\n\n"
    "ALSO AVAILABLE\n\nTales of the Hearth\nA Winter Journey",
    "also by": "Also by A. Writer\n\nTales of the Hearth\nA Winter Journey",
}
ZH_FRAME = (
    "全书完\n\n后记：本书由网友整理上传，仅供学习交流，请于阅读后24小时内删除。\n"
    "作者其他作品：《江湖夜雨》《长安旧事》"
)


@pytest.mark.parametrize("kind", sorted(EN_BACK_MATTER))
@pytest.mark.parametrize("name", ["pride_and_prejudice.txt", "moby_dick.txt"])
def test_ebook_back_matter_goes_as_one_block(shared_corpora: Path, name: str, kind: str) -> None:
    doc = read_shared(shared_corpora, "en_pg_stripped", name)
    expected = processed(doc)
    planted = with_text(doc, doc.text.rstrip() + "\n\n\n" + EN_BACK_MATTER[kind] + "\n")
    book, report = process_document(planted, SETTINGS)
    assert book is not None
    assert chapter_tuples(book) == chapter_tuples(expected)
    assert report.removed["en/back-matter"] == 1


@pytest.mark.parametrize("name", ["hongloumeng_utf8.txt", "sanguo_utf8.txt"])
def test_a_download_frame_after_the_end_line_goes(shared_corpora: Path, name: str) -> None:
    doc = read_shared(shared_corpora, "zh_simplified_four_classics", name)
    expected = processed(doc)
    planted = with_text(doc, doc.text.rstrip() + "\n\n" + ZH_FRAME + "\n")
    book, report = process_document(planted, SETTINGS)
    assert book is not None
    assert report.removed["zh-web/back-matter"] == 1
    last, expected_last = book.chapters[-1].text, expected.chapters[-1].text
    # The end line is the book's own last line: it stays, and nothing after it.
    assert last == expected_last.rstrip() + "\n\n全书完"
    assert [c.text for c in book.chapters[:-1]] == [c.text for c in expected.chapters[:-1]]


def test_a_chapter_after_the_end_line_keeps_everything(shared_corpora: Path) -> None:
    """`全书完` followed by a 番外 chapter: the story goes on, nothing is cut."""
    doc = read_shared(shared_corpora, "zh_simplified_four_classics", "hongloumeng_utf8.txt")
    tail = (
        "全书完\n\n后记：多谢各位一路相伴。\n\n番外 宝玉出家以后\n\n"
        + "话说宝玉出家以后，四处云游。" * 40
    )
    book, report = process_document(with_text(doc, doc.text.rstrip() + "\n\n" + tail), SETTINGS)
    assert book is not None
    assert "zh-web/back-matter" not in report.removed
    assert any("多谢各位一路相伴" in c.text for c in book.chapters)
