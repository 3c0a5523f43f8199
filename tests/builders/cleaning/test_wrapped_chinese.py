"""A Chinese book hard-wrapped at a fixed width cleans to the same chapters as the same
book with a paragraph per line.

Before this was handled, rules ran on the lines a wrap had cut: 红楼梦 wrapped at 24 or 30
characters kept `．` as a full stop in 113 of 120 chapters (the wrap had put the dot at
the start of a line, with no ideograph before it) and lost the pairing of its ASCII
quotes; 三国演义 kept a site advert (`丫丫电子书`) that the wrap had split over two lines;
水浒传 got `假道 :‘`, a space put in where the wrap fell before ASCII punctuation.

Written against the four zh classics, wrapped with Python's textwrap (at any character).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from lengthwise.builders.cleaning.unwrap import unwrap_paragraphs
from lengthwise.builders.corpus import process_document
from tests.fixtures.reprinting import SETTINGS, hard_wrapped, processed, read_shared, with_text

ZH = "zh_simplified_four_classics"


@pytest.mark.parametrize(
    ("name", "width"),
    [
        ("sanguo_utf8.txt", 30),
        ("sanguo_utf8.txt", 24),
        ("hongloumeng_utf8.txt", 24),
        ("shuihu_utf8.txt", 30),
    ],
)
def test_a_wrapped_chinese_book_keeps_every_chapter_as_printed_unwrapped(
    shared_corpora: Path, name: str, width: int
) -> None:
    doc = read_shared(shared_corpora, ZH, name)
    reference = processed(doc)
    book, report = process_document(
        with_text(doc, hard_wrapped(doc.text, width, cjk=True)), SETTINGS
    )
    assert book is not None, report.excluded
    assert report.removed["common/unwrap-paragraphs"] > 10_000
    assert [c.heading for c in book.chapters] == [c.heading for c in reference.chapters]
    differing = [
        c.heading
        for c, r in zip(book.chapters, reference.chapters, strict=True)
        if "".join(c.text.split()) != "".join(r.text.split())
    ]
    assert differing == []


def test_in_a_chinese_book_a_wrapped_line_joins_without_a_space_even_between_letters() -> None:
    story = "话说平儿出来吩咐林之孝家的道大事化为小事小事化为没事方是兴旺之家若得"
    paragraph = story[:19] + "本书来自www.shuyaya.com免费阅读" + story
    # Wrapped at 30 characters: the first line ends `…www.shu`, the next starts `yaya.com`.
    lines = [paragraph[i : i + 30] for i in range(0, len(paragraph), 30)]
    assert lines[0].endswith("www.shu")
    book = "\n\n".join("\n".join(lines) for _ in range(20)) + "\n"
    outcome = unwrap_paragraphs(book)
    assert outcome.text == "\n\n".join(paragraph for _ in range(20)) + "\n"


def test_in_an_english_book_a_wrapped_line_still_joins_with_a_space() -> None:
    paragraph = " ".join(["The wharf was quiet that morning and the clerks came down"] * 3)
    lines = textwrap.wrap(paragraph, 70)
    book = "\n\n".join("\n".join(lines) for _ in range(40)) + "\n"
    outcome = unwrap_paragraphs(book)
    assert outcome.text == "\n\n".join(paragraph for _ in range(40)) + "\n"
