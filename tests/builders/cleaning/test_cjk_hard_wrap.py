"""Hard-wrapped Chinese: every wrap width of a book is unwrapped where a line breaks
inside a sentence, and rules printed under headings go.

Found in a held-out hard-wrapped novel: 20 % of its samples kept 5 or more line breaks
inside sentences, and a 66-dash rule was glued to the first sentence of 118 of its 120
chapters. A book cut at several widths (30 characters in one chapter, 35 or 40 in the
next, as books put together chapter by chapter are) showed no single wrap width, so
nothing was unwrapped; the rule under each heading was as long as a full line and was
joined to the text below it.

Written against 西游记 set in these layouts; 水浒传 (not looked at while writing) and
三国演义 are the checks. 红楼梦, with its verse set line by line, is left as it was.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lengthwise.builders.cleaning import clean_text
from lengthwise.builders.cleaning.cjk_wrap import in_sentence_breaks, spike_widths
from lengthwise.builders.cleaning.unwrap import unwrap_paragraphs
from lengthwise.records import Book
from lengthwise.spec import CleaningConfig
from tests.fixtures.reprinting import processed, read_shared, with_text

ZH = "zh_simplified_four_classics"
_HEADING = re.compile(r"\s*第[一二三四五六七八九十百零〇]+回")


def chapter_by_chapter_wrap(text: str, widths: list[int], rule: str) -> str:
    """Each chapter's paragraphs indented with two ideographic spaces and cut every
    `widths[chapter % len(widths)]` characters, `rule` on a line under each heading."""
    out: list[str] = []
    chapter = 0
    for line in text.split("\n"):
        stripped = line.strip()
        if _HEADING.match(line):
            chapter += 1
            out += [stripped, rule]
        elif not stripped:
            out.append("")
        else:
            width = widths[chapter % len(widths)]
            para = "\u3000\u3000" + stripped
            out += [para[i : i + width] for i in range(0, len(para), width)]
    return "\n".join(out)


def _chapters(book: Book) -> list[tuple[str, str]]:
    return [(" ".join(c.heading.split()), "".join(c.text.split())) for c in book.chapters]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "widths", "rule"),
    [
        ("shuihu_utf8.txt", [30, 35, 40, 35], "-" * 66),
        ("sanguo_utf8.txt", [33, 28, 36], "＝" * 33),
    ],
)
def test_a_book_wrapped_at_several_widths_reads_as_the_unwrapped_one(
    shared_corpora: Path, name: str, widths: list[int], rule: str
) -> None:
    doc = read_shared(shared_corpora, ZH, name)
    reference = processed(doc)
    wrapped = processed(with_text(doc, chapter_by_chapter_wrap(doc.text, widths, rule)))
    assert len(wrapped.chapters) == len(reference.chapters)
    # The same chapters, whitespace aside: no rule left, nothing lost or added.
    assert _chapters(wrapped) == _chapters(reference)
    kept = sum(len(in_sentence_breaks(c.text, "zh")) for c in wrapped.chapters)
    before = sum(len(in_sentence_breaks(c.text, "zh")) for c in reference.chapters)
    assert kept <= before + 5, kept


def test_every_width_of_a_mixed_book_is_a_spike() -> None:
    lines = []
    for width in (30, 35, 40):
        for n in range(60):
            lines += ["字" * width] * 3 + ["字" * (n % 25 + 3) + "。"]
    assert spike_widths(lines) == (30, 35, 40)


@pytest.mark.slow
def test_a_book_set_line_by_line_with_verse_is_left_as_it_was(shared_corpora: Path) -> None:
    doc = read_shared(shared_corpora, ZH, "hongloumeng_utf8.txt")
    result = clean_text(doc.text, "zh", CleaningConfig())
    assert "common/unwrap-paragraphs" not in result.removed
    assert "common/separator-line" not in result.removed


def test_verse_lines_of_one_length_stay_lines_whatever_their_stop_looks_like() -> None:
    """Found on the shared 今古奇觀 (partly hard-wrapped at 33-34 characters): its verse,
    every line `公子初年柳陌游，玉堂一見便綢繆﹔` at one length (a spike), closes with the
    small semicolon `﹔`, which was not read as a stop: 30 verse lines were joined."""
    prose = "話說正德年間南京金陵城有一人姓王名瓊別號思竹中乙丑科進士累官至禮部尚書因"
    verse = ["    公子初年柳陌游，玉堂一見便綢繆﹔", "    黃金數萬皆消費，紅粉雙眸枉淚流。"]
    lines: list[str] = []
    for _ in range(30):
        lines += [prose[:34], prose[:34], prose[:12] + "。", *verse]
    text = "\n".join(lines)
    out = unwrap_paragraphs(text).text.split("\n")
    assert sum(1 for line in out if line in verse) == len(verse) * 30


@pytest.mark.slow
def test_a_shared_book_partly_hard_wrapped_keeps_no_breaks_inside_sentences(
    shared_corpora: Path,
) -> None:
    """The shared 今古奇觀 (zh_story_collection) is cut at 33-34 characters in most of its
    卷 and not at all in others: no single wrap width, so it kept about 7,600 line breaks
    inside sentences (`只留一個人在船上看⏎守`); its verse (lines closed by `﹔`) stays."""
    doc = read_shared(shared_corpora, "zh_story_collection", "jingu_qiguan_trad.txt")
    book = processed(doc)
    breaks = sum(len(in_sentence_breaks(c.text, "zh")) for c in book.chapters)
    assert breaks < 400, breaks  # from 7,800; the rest: lines of other lengths
    assert any("玉堂一見便綢繆﹔\n" in c.text for c in book.chapters)
