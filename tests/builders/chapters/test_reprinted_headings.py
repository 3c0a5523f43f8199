"""Heading forms of other editions, tried on shared books reprinted in them.

- Chinese books headed in Latin script (`Chapter 12　风起`, as some web novels are): the
  numbers were first removed as inline page numbers (`zh/inline-page-markers` saw a
  rising series) and the book came out as 2 chapters;
- `Chapter&nbsp;12`: a no-break space in the heading (HTML conversions) hid it;
- `【第十回】title` and `[第十回 title]`: a bracket before 第 made the heading a weak
  mid-line candidate, a `?` in the title then rejected it, and the bracket ended the
  previous chapter;
- `卷一 title`, `卷之一`: classical volume numbering, unit first, was not looked for;
- chapters printed in parts (`第五回 …（上）` / `…（下）`, `CHAPTER V (continued)`) were
  reported as doubled numbers.

Written against 红楼梦 and Pride and Prejudice copies; these tests use 水浒传, 西游记, Tom
Sawyer and Alice, which were not looked at for it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from lengthwise.builders.chapters import detect_chapters
from lengthwise.builders.chapters.sequence import (
    continues_chapter,
    numbering_problems,
    split_title,
)
from lengthwise.builders.chapters.work_boundaries import BETWEEN_WORKS_NOTE
from lengthwise.builders.chapters.zh_numerals import to_chinese_number
from lengthwise.builders.corpus import process_document
from lengthwise.builders.sampling.number_gaps import numbering_breaks
from lengthwise.builders.structure_report import render_structure_section
from lengthwise.records import Book, Chapter, SourceDocument
from tests.fixtures.reprinting import (
    SETTINGS,
    processed,
    read_shared,
    reprint_headings,
    with_text,
)

ZH = "zh_simplified_four_classics"
EN = "en_pg_stripped"


def _same_chapters(reprinted: Book, original: Book) -> None:
    assert [c.number for c in reprinted.chapters] == [c.number for c in original.chapters]
    assert [c.text for c in reprinted.chapters] == [c.text for c in original.chapters]


@pytest.mark.parametrize("name", ["shuihu_utf8.txt", "xiyouji_utf8.txt"])
@pytest.mark.parametrize("space", ["\u3000", " "])
def test_latin_headings_in_a_chinese_book(shared_corpora: Path, name: str, space: str) -> None:
    doc = read_shared(shared_corpora, ZH, name)
    original = processed(doc)
    reprinted = reprint_headings(doc, original, lambda c: f"Chapter {c.number}{space}{c.title}")
    book, report = process_document(reprinted, SETTINGS)
    assert book is not None, report.excluded
    _same_chapters(book, original)
    assert "zh/inline-page-markers" not in report.removed


ZH_FORMS: dict[str, Callable[[Chapter], str]] = {
    "bracketed number": lambda c: f"【第{to_chinese_number(c.number or 0)}回】{c.title}",
    "bracketed heading": lambda c: f"[第{to_chinese_number(c.number or 0)}回 {c.title}]",
    "volume first": lambda c: f"卷{to_chinese_number(c.number or 0)}\u3000{c.title}",
    "volume of": lambda c: f"卷之{to_chinese_number(c.number or 0)}",
    "hua unit": lambda c: f"第{to_chinese_number(c.number or 0)}話 {c.title}",
    "part of": lambda c: f"第{to_chinese_number(c.number or 0)}部分 {c.title}",
    # Spaced out: cleaning's structural line test must know it too, or it glues the
    # heading's neighbours (the whole text then differs, not only the headings).
    "spaced out": lambda c: f"第 {to_chinese_number(c.number or 0)} 回  {c.title}",
}


@pytest.mark.parametrize("name", ["shuihu_utf8.txt", "xiyouji_utf8.txt"])
@pytest.mark.parametrize("form", list(ZH_FORMS))
def test_other_chinese_heading_forms(shared_corpora: Path, name: str, form: str) -> None:
    doc = read_shared(shared_corpora, ZH, name)
    original = processed(doc)
    reprinted = processed(reprint_headings(doc, original, ZH_FORMS[form]))
    _same_chapters(reprinted, original)
    if form.startswith("bracketed"):  # the title is read without the brackets
        assert [c.title for c in reprinted.chapters] == [c.title for c in original.chapters]


def _roman(number: int) -> str:
    values = ((100, "C"), (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"))
    out = ""
    for value, letters in (*values, (4, "IV"), (1, "I")):
        count, number = divmod(number, value)
        out += letters * count
    return out


_ORDINALS = [
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
]
_TENS = ["", "", "twenty", "thirty", "forty"]


def _ordinal(number: int) -> str:
    tens, ones = divmod(number, 10)
    if number < 20:
        return _ORDINALS[number - 1]
    return _TENS[tens][:-1] + "ieth" if ones == 0 else f"{_TENS[tens]}-{_ORDINALS[ones - 1]}"


# Heading classes of other editions: letter-spacing, ordinal first, a decorative frame,
# lowercase, abbreviation. Written against Pride and Prejudice; tested on these two.
EN_FORMS: dict[str, Callable[[Chapter], str]] = {
    "letter-spaced": lambda c: "C H A P T E R   " + " ".join(_roman(c.number or 0)),
    "ordinal first": lambda c: f"{_ordinal(c.number or 0).upper()} CHAPTER",
    "the ordinal first": lambda c: f"The {_ordinal(c.number or 0).title()} Chapter",
    "bracket frame": lambda c: f"[Chapter {c.number}]",
    "asterisk frame": lambda c: f"**Chapter {c.number}**",
    "dash frame": lambda c: f"-- CHAPTER {_roman(c.number or 0)} --",
    "lowercase": lambda c: f"chapter {_roman(c.number or 0).lower()}",
    "abbreviated": lambda c: f"Ch. {c.number}",
}


@pytest.mark.parametrize("name", ["tom_sawyer.txt", "alice_in_wonderland.txt"])
@pytest.mark.parametrize("form", list(EN_FORMS))
def test_other_english_heading_forms(shared_corpora: Path, name: str, form: str) -> None:
    doc = read_shared(shared_corpora, EN, name)
    original = processed(doc)
    reprinted = reprint_headings(doc, original, EN_FORMS[form])
    assert reprinted.text != doc.text
    book = processed(reprinted)
    _same_chapters(book, original)
    first = book.chapters[0].heading.split("\n")[0]
    assert first == EN_FORMS[form](original.chapters[0])  # the frame is the heading's


@pytest.mark.parametrize("name", ["tom_sawyer.txt", "alice_in_wonderland.txt"])
def test_canto_headings(shared_corpora: Path, name: str) -> None:
    doc = read_shared(shared_corpora, EN, name)
    original = processed(doc)
    cantos = reprint_headings(
        doc, original, lambda c: c.heading.split("\n")[0].replace("CHAPTER", "CANTO")
    )
    _same_chapters(processed(cantos), original)


@pytest.mark.parametrize("name", ["tom_sawyer.txt", "alice_in_wonderland.txt"])
def test_no_break_space_in_english_headings(shared_corpora: Path, name: str) -> None:
    doc = read_shared(shared_corpora, EN, name)
    original = processed(doc)
    nbsp = reprint_headings(doc, original, lambda c: c.heading.split("\n")[0].replace(" ", "\xa0"))
    assert nbsp.text != doc.text
    _same_chapters(processed(nbsp), original)


def _split_in_parts(
    doc: SourceDocument, chapters: list[Chapter], first: str, second: Callable[[str], str]
) -> SourceDocument:
    """`doc` with each of `chapters` printed in two parts: `first` appended to its heading
    line, and a second heading (`second` of the heading line) before the line break
    nearest its middle."""
    text = doc.text
    for chapter in chapters:
        heading = chapter.heading.split("\n")[0]
        start = text.index(chapter.text[:40])
        middle = text.index("\n", start + len(chapter.text) // 2)
        text = f"{text[:middle]}\n\n{second(heading)}\n{text[middle:]}"
        at = text.rindex(heading, 0, start)
        text = f"{text[:at]}{heading}{first}{text[at + len(heading) :]}"
    return with_text(doc, text)


def _no_space(text: str) -> str:
    return re.sub(r"\s", "", text)


@pytest.mark.parametrize(
    ("folder", "name", "first", "second"),
    [
        (ZH, "shuihu_utf8.txt", "（上）", lambda heading: f"{heading}（下）"),
        # `CHAPTER IV. Title` continued as `CHAPTER IV (continued)`.
        (EN, "tom_sawyer.txt", "", lambda heading: f"{heading.split('.')[0]} (continued)"),
    ],
)
def test_chapters_printed_in_parts_are_split_not_doubled(
    shared_corpora: Path, folder: str, name: str, first: str, second: Callable[[str], str]
) -> None:
    doc = read_shared(shared_corpora, folder, name)
    original, original_report = process_document(doc, SETTINGS)
    assert original is not None
    chosen = [c for c in original.chapters if c.number and c.number % 3 == 1]
    book, report = process_document(_split_in_parts(doc, chosen, first, second), SETTINGS)
    assert book is not None, report.excluded
    # Tom Sawyer prints XVI twice (for XXVI): that stays reported.
    assert report.duplicates == original_report.duplicates
    assert report.split_numbers == sorted({c.number for c in chosen if c.number})
    assert len(book.chapters) == len(original.chapters) + len(chosen)
    # Each part is a chapter; together they hold the original chapter's text.
    joined = [book.chapters[0].text]
    for previous, chapter in zip(book.chapters, book.chapters[1:], strict=False):
        if chapter.number == previous.number and chapter.number in report.split_numbers:
            joined[-1] += chapter.text
        else:
            joined.append(chapter.text)
    assert [_no_space(t) for t in joined] == [_no_space(c.text) for c in original.chapters]


@pytest.mark.parametrize(
    ("title", "previous", "continues"),
    [
        ("王熙凤协理宁国府（下）", "王熙凤协理宁国府（上）", True),
        ("风起 (2)", "风起 (1)", True),
        ("风起（2/3）", "风起（1/3）", True),
        ("风起（二）", "风起", True),
        ("The Storm, Part 2", "The Storm, Part 1", True),
        ("(continued)", "The Storm", True),
        ("续", "风起", True),
        # The same heading twice, or two titles: a doubled number, not parts.
        ("王熙凤协理宁国府", "王熙凤协理宁国府", False),
        ("风起", "云涌", False),
        ("风起（下）", "云涌（上）", False),
    ],
)
def test_continues_chapter(title: str, previous: str, continues: bool) -> None:
    assert continues_chapter(title, previous) is continues


def test_split_title_leaves_titles_without_a_marker() -> None:
    assert split_title("天下第一") == ("天下第一", None)
    assert split_title("Upstairs and Down") == ("Upstairs and Down", None)
    assert split_title("王熙凤 上") == ("王熙凤", "上")


def test_numbering_problems_tell_parts_from_doubles() -> None:
    entries = [
        (1, None, "回", "甲"),
        (2, None, "回", "乙（上）"),
        (2, None, "回", "乙（下）"),
        (3, None, "回", "丙"),
        (3, None, "回", "丙"),  # printed twice
        (5, None, "回", "戊"),
    ]
    problems = numbering_problems(entries)
    assert problems.split == [2]
    assert problems.duplicates == [3]
    assert problems.gaps == [(4, 4)]


def test_other_script_headings_win_over_a_few_own() -> None:
    """A Chinese book headed `Chapter N` whose text holds two line-start `第…回` lines (a
    preface listing them): the Latin headings number the chapters."""
    body = "他说了许多话，大家都听着，一直到天黑才散去。" * 30
    preface = f"第一回 讲开头\n{body}\n第二回 讲后来\n{body}\n"
    text = preface + "".join(f"Chapter {n}　标题{n}\n{body}\n" for n in range(1, 9))
    detection = detect_chapters(text, "zh")
    assert [c.number for c in detection.chapters] == list(range(1, 9))


@pytest.mark.parametrize(
    ("folder", "first", "second"),
    [
        (EN, "pride_and_prejudice.txt", "alice_in_wonderland.txt"),
        (EN, "tom_sawyer.txt", "pride_and_prejudice.txt"),
        (ZH, "shuihu_utf8.txt", "xiyouji_utf8.txt"),
    ],
)
def test_two_works_in_one_file(shared_corpora: Path, folder: str, first: str, second: str) -> None:
    """An omnibus file: once the second work's first chapters were headings inside the
    first work's last chapter, and its later chapters continued the first's numbering;
    then its title page, contents list and preface closed the first work's last chapter.
    Written against Alice followed by Tom Sawyer and 红楼梦 followed by 三国演义."""
    one, two = (read_shared(shared_corpora, folder, name) for name in (first, second))
    book_one, book_two = processed(one), processed(two)
    omnibus, report = process_document(with_text(one, f"{one.text}\n\n\n{two.text}"), SETTINGS)
    assert omnibus is not None, report.excluded
    numbers = [c.number for c in omnibus.chapters]
    assert numbers == [c.number for c in book_one.chapters + book_two.chapters]
    # Every chapter's text is its own work's: the first work's last chapter ends where it
    # ends printed alone (but for an end mark such as `THE END`, which is furniture).
    texts = [c.text for c in omnibus.chapters]
    ones = len(book_one.chapters)
    assert texts[: ones - 1] == [c.text for c in book_one.chapters[:-1]]
    alone = book_one.chapters[-1].text
    assert alone.startswith(texts[ones - 1])
    assert all(len(line.strip()) <= 20 for line in alone[len(texts[ones - 1]) :].splitlines())
    assert texts[ones:] == [c.text for c in book_two.chapters]
    assert any("numbering starts again" in w for w in report.warnings)
    assert ones in numbering_breaks(omnibus.chapters)
    # The second work's front matter is outside every chapter, and the report says why.
    assert report.outside_chapters is not None
    [between] = [s for s in report.outside_chapters["spans"] if s["note"] == BETWEEN_WORKS_NOTE]
    assert between["kind"] == "between"
    assert "".join(between["first_words"].split())[:8] == "".join(two.text.split())[:8]
    assert any(BETWEEN_WORKS_NOTE in line for line in render_structure_section([report]))
