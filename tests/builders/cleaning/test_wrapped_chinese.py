"""A Chinese book hard-wrapped at a fixed width cleans to the same chapters as the same
book with a paragraph per line.

Before this was handled, rules ran on the lines a wrap had cut: 红楼梦 wrapped at 24 or 30
characters kept `．` as a full stop in 113 of 120 chapters (the wrap had put the dot at
the start of a line, with no ideograph before it) and lost the pairing of its ASCII
quotes; 三国演义 kept a site advert (`丫丫电子书`) that the wrap had split over two lines;
水浒传 got `假道 :‘`, a space put in where the wrap fell before ASCII punctuation.

A book saved without line breaks and then hard-wrapped (官场现形记, 镜花缘 at 24-30
characters) gave 1-2 chapters whose heading took the body's first words: the wrap had put
the glued heading at a line start, and the whole line was read as heading and title.

Written against the four zh classics and, for the last case, 官场现形记 and 镜花缘; 封神演义
(wrapped at 20-40) was checked only after, and was unchanged. Wrapped with Python's
textwrap (at any character).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from lengthwise.builders.cleaning.unwrap import unwrap_paragraphs
from lengthwise.builders.corpus import BookReport, process_document
from lengthwise.records import Book
from tests.fixtures.planting import planted_in_chapters
from tests.fixtures.reprinting import SETTINGS, hard_wrapped, processed, read_shared, with_text

ZH = "zh_simplified_four_classics"


def _letters(text: str) -> str:
    return "".join(text.split())


def _wrapped_and_reference(
    shared_corpora: Path, folder: str, name: str, width: int
) -> tuple[Book, BookReport, Book]:
    """The book hard-wrapped at `width` (at any character), its report, and the book
    processed as the shared file prints it."""
    doc = read_shared(shared_corpora, folder, name)
    book, report = process_document(
        with_text(doc, hard_wrapped(doc.text, width, cjk=True)), SETTINGS
    )
    assert book is not None, report.excluded
    return book, report, processed(doc)


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
    book, report, reference = _wrapped_and_reference(shared_corpora, ZH, name, width)
    assert report.removed["common/unwrap-paragraphs"] > 10_000
    assert [c.heading for c in book.chapters] == [c.heading for c in reference.chapters]
    differing = [
        c.heading
        for c, r in zip(book.chapters, reference.chapters, strict=True)
        if _letters(c.text) != _letters(r.text)
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


@pytest.mark.parametrize(
    ("name", "width"),
    [("guanchang_flat.txt", 30), ("guanchang_flat.txt", 24), ("jinghuayuan_flat.txt", 24)],
)
def test_a_book_without_line_breaks_then_hard_wrapped_keeps_its_chapters(
    shared_corpora: Path, name: str, width: int
) -> None:
    """Where the wrap puts a glued heading at a line start, the line is heading, title and
    the body's first words: the title is cut where the book's glued titles are."""
    book, _, reference = _wrapped_and_reference(shared_corpora, "zh_pg_flattened", name, width)
    assert [c.heading for c in book.chapters] == [c.heading for c in reference.chapters]
    assert [_letters(c.text) for c in book.chapters] == [
        _letters(c.text) for c in reference.chapters
    ]


def test_a_short_last_line_ending_in_a_closing_quote_ends_its_paragraph() -> None:
    """Without blank lines between paragraphs, only the short last line tells where one
    ends: `。”` must not make it count as full (it did: `”` is no CJK character, and the
    next "word" of Chinese text is the whole next line)."""
    story = "话说平儿出来吩咐林之孝家的道大事化为小事小事化为没事方是兴旺之家若得"
    endings = ["。”", "之", "！」", "？"]
    paragraphs = [(story * 3)[k : k + 50] + endings[k % 4] for k in range(40)]
    wrapped = "\n".join(p[i : i + 30] for p in paragraphs for i in range(0, len(p), 30))
    assert unwrap_paragraphs(wrapped).text.split("\n") == paragraphs


def _indented_at_width(text: str, width: int = 35) -> str:
    """Every paragraph indented with `　　` and cut every `width` characters, no blank
    lines: the classic fixed-width Chinese e-text."""
    paragraphs = ["\u3000\u3000" + line.strip() for line in text.split("\n") if line.strip()]
    return "\n".join(
        "\n".join(p[i : i + width] for i in range(0, len(p), width)) for p in paragraphs
    )


_HONGLOUMENG = "hongloumeng_utf8.txt"
_XIYOUJI = "xiyouji_utf8.txt"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "notice", "where"),
    [
        # 红楼梦's own notice (`本站长期招收…，点此察` / `看详情！`): written against it.
        (_HONGLOUMENG, None, ""),
        (_XIYOUJI, "本站所有小说均来自书友上传，如有侵权请联系删除，谢谢大家的支持与厚爱！", "end"),
        # Exactly as wide as the wrap, mid-chapter: the paragraph below is the story's.
        (_XIYOUJI, "本站所有小说均来自书友上传，如有侵权请联系本站删除，谢谢各位大家！", "middle"),
        # A learned credit exactly as wide as the wrap, after the heading: the paragraph
        # below it is the story's.
        (_XIYOUJI, "世德堂本西游记校订本第二版上海古籍出版社一九八六年六月第一次印", "start"),
        # A credit no site rule knows: its first piece is learned, its last ends a sentence.
        (
            _XIYOUJI,
            "世德堂本西游记校订本第二版上海古籍出版社一九八六年六月第一次印刷本共印五千册。",
            "end",
        ),
    ],
)
def test_a_site_notice_cut_by_the_wrap_goes_with_its_last_piece(
    shared_corpora: Path, name: str, notice: str | None, where: str
) -> None:
    """The notice's first piece is a site line on its own; the piece below it at the
    margin is the rest of the same line and goes with it (it stayed: `看详情！`)."""
    doc = read_shared(shared_corpora, ZH, name)
    reference = process_document(with_text(doc, _indented_at_width(doc.text)), SETTINGS)[0]
    assert reference is not None
    if notice is None:
        book = reference
        assert "看详情" not in "".join(c.text for c in reference.chapters)
    else:
        planted, count = planted_in_chapters(
            doc, processed(doc), lambda _: f"\n{notice}\n", where=where
        )
        assert count >= 90
        book = process_document(with_text(doc, _indented_at_width(planted.text)), SETTINGS)[0]
        assert book is not None
        assert [_letters(c.text) for c in book.chapters] == [
            _letters(c.text) for c in reference.chapters
        ]
    leftovers = ("点此察", "谢谢大家的支持", "共印五千册")
    assert not any(left in c.text for c in book.chapters for left in leftovers)
