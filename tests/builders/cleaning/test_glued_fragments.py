"""`common/glued-fragment`: an advert glued into the running text all through a book goes
wherever it stands, and the story around it stays character for character.

Found by a held-out probe (adverts invented without reading the rules, glued after
sentence ends into 水浒传, 三国演义, Sherlock Holmes and Tom Sawyer: all kept by cleaning).
Written against those four; tested here on 西游记, 红楼梦, Pride and Prejudice and Moby Dick
with other adverts, and on 鏡花緣 saved without line breaks, whose closing formula before
every chapter heading a first version took (the shared-corpus digest showed it).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lengthwise.builders.cleaning.glued_fragments import NAME
from lengthwise.builders.corpus import process_document
from lengthwise.builders.corpus_settings import CorpusSettings
from lengthwise.spec import ChaptersConfig, CleaningConfig
from tests.fixtures.planting import chapter_tuples, plant_after
from tests.fixtures.reprinting import SETTINGS, processed, read_shared, with_text

ZH_END = "。(?!\n)"  # after a sentence inside a line
EN_END = r"\. (?=[A-Z])"
ZH = "zh_simplified_four_classics"
LIBRARY = "Enjoy more public domain novels at the Lamplight Library."
CASES = [
    (ZH, "xiyouji_utf8.txt", ZH_END, "书虫之家温馨提示您：夜深了请早点休息。"),
    (ZH, "hongloumeng_utf8.txt", "。", "喜欢本书的朋友请到夜读时光阅读全文。"),
    ("en_pg_stripped", "pride_and_prejudice.txt", EN_END, f"({LIBRARY}) "),
    ("en_pg_stripped", "moby_dick.txt", EN_END, "Thanks for reading with the Lamplight Library. "),
]  # fmt: skip


@pytest.mark.parametrize(("folder", "name", "boundary", "advert"), CASES)
def test_an_advert_glued_all_through_the_book_goes(
    shared_corpora: Path, folder: str, name: str, boundary: str, advert: str
) -> None:
    doc = read_shared(shared_corpora, folder, name)
    expected = processed(doc)
    text, planted = plant_after(doc.text, boundary, advert, 5000)
    book, report = process_document(with_text(doc, text), SETTINGS)
    assert book is not None
    assert chapter_tuples(book) == chapter_tuples(expected)
    assert report.removed.get(NAME, 0) == planted
    [learned] = [line for line in report.learned_boilerplate if line.rule == NAME]
    assert learned.line == advert.strip() and learned.count == planted


def _planted(shared_corpora: Path, every: int, advert: str) -> tuple[int, int]:
    """(planted, left in the chapters) for `advert` glued every `every` characters into
    西游记's middle fifth or, with every < 0, all through it."""
    doc = read_shared(shared_corpora, "zh_simplified_four_classics", "xiyouji_utf8.txt")
    if every > 0:
        text, planted = plant_after(doc.text, ZH_END, advert, every)
    else:  # one part of the book only: a scene's repeated line, not furniture
        fifth = len(doc.text) // 5
        middle, planted = plant_after(doc.text[2 * fifth : 3 * fifth], ZH_END, advert, -every)
        text = doc.text[: 2 * fifth] + middle + doc.text[3 * fifth :]
    book, _ = process_document(with_text(doc, text), SETTINGS)
    assert book is not None
    return planted, sum(c.text.count(advert) for c in book.chapters)


def test_too_rare_or_in_one_part_of_the_book_it_stays(shared_corpora: Path) -> None:
    advert = "书虫之家温馨提示您：夜深了请早点休息。"
    planted, left = _planted(shared_corpora, 60_000, advert)  # ~11: under 1 per 20,000
    assert planted >= 5 and left == planted
    planted, left = _planted(shared_corpora, -2000, advert)  # ~60, all in the middle fifth
    assert planted >= 34 and left == planted
    planted, left = _planted(shared_corpora, 5000, "夜读时光提醒您。")  # weighs 14
    assert planted >= 100 and left == planted


def test_a_closing_formula_before_every_heading_stays(shared_corpora: Path) -> None:
    """鏡花緣 saved without line breaks: `未知後事如何，且看下回分解。` then `第N回`, 99 times."""
    doc = read_shared(shared_corpora, "zh_pg_flattened", "jinghuayuan_flat.txt")
    formula = "未知後事如何，且看下回分解。"
    book = processed(doc)
    assert doc.text.count(formula) >= 80
    assert sum(c.text.count(formula) for c in book.chapters) == doc.text.count(formula)


def test_the_switches_keep_it(shared_corpora: Path) -> None:
    doc = read_shared(shared_corpora, "en_pg_stripped", "pride_and_prejudice.txt")
    advert = "(Enjoy more public domain novels at the Lamplight Library.) "
    text, planted = plant_after(doc.text, EN_END, advert, 5000)
    for cleaning in (
        CleaningConfig(learned_boilerplate=False),
        CleaningConfig(disable_rules=[NAME]),
    ):
        settings = CorpusSettings("auto", cleaning, ChaptersConfig())
        book, report = process_document(with_text(doc, text), settings)
        assert book is not None and NAME not in report.removed
        assert sum(c.text.count(advert.strip()) for c in book.chapters) == planted
