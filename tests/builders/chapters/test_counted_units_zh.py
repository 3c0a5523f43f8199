"""Chinese units headed by a counter the keyword forms do not know, and 卷 as stories.

Short excerpts of real books (tests/fixtures/forms/, from smalllion22/project_gutenberg
@0fc8ff3): 初刻拍案驚奇 reprinted with `第N卷` and the story's title on separate lines
(as the held-out 今古奇觀 prints them), 世說新語 (`德行第一`: a title, then `第` and the
number, no blank lines) and 豆棚閒話 (`第一則     介之推火封妒婦`, hard-wrapped, 第四則
left out as a file may lose one). Before, the first came out as 卷 without titles and no
collection, the other two were excluded ("no chapter headings found"), and cleaning
glued `第二則 …` to the end of the paragraph above it.
"""

from __future__ import annotations

from pathlib import Path

from lengthwise.builders.corpus import process_document
from lengthwise.builders.sources.local import read_local_file
from lengthwise.records import SourceDocument
from tests.fixtures.reprinting import SETTINGS

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "forms"


def _build(name: str) -> tuple[list[tuple[str, int | None, str]], bool]:
    doc = read_local_file(FIXTURES / name)
    assert isinstance(doc, SourceDocument)
    book, report = process_document(doc, SETTINGS)
    assert book is not None, report.excluded
    return [(c.heading, c.number, c.title) for c in book.chapters], report.story_collection


def test_volume_and_title_on_the_next_line_is_a_story() -> None:
    chapters, collection = _build("chuke_paian_two_line_excerpt.txt")
    assert [number for _, number, _ in chapters] == [1, 2, 3, 4, 5]
    assert chapters[1] == (
        "第二卷\n姚滴珠避羞惹羞\u3000鄭月娥將錯就錯",
        2,
        "姚滴珠避羞惹羞\u3000鄭月娥將錯就錯",
    )
    assert collection


def test_title_then_counter_without_blank_lines() -> None:
    chapters, collection = _build("shishuo_xinyu_excerpt.txt")
    assert [(h, n) for h, n, _ in chapters] == [
        ("德行第一", 1), ("言語第二", 2), ("政事第三", 3),
        ("文學第四", 4), ("方正第五", 5), ("雅量第六", 6),
    ]  # fmt: skip
    assert not collection


def test_any_unit_word_with_a_lost_number() -> None:
    chapters, _ = _build("doupeng_xianhua_excerpt.txt")
    assert [(n, t) for _, n, t in chapters] == [
        (1, "介之推火封妒婦"), (2, "范少伯水葬西施"), (3, "朝奉郎揮金倡霸"),
        (5, "小乞兒真心孝義"), (6, "大和尚假意超昇"),
    ]  # fmt: skip
