"""Chinese books whose chapters are headed by a bare numeral (`一`, `十一、标题`, `（一）`,
`11. 标题`), as modern novels print them: once excluded as "no chapter headings found",
and the `一、标题` form was glued to the following paragraph by the paragraph rejoiner.

Written against a 西游记 copy; these tests use 红楼梦 and 水浒传, which were not looked at
for it, through the whole corpus step (cleaning included): the chapters must be the
originals' chapters, body for body."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from lengthwise.builders.chapters import detect_chapters
from lengthwise.builders.chapters.bare_zh import is_zh_bare_heading
from lengthwise.builders.chapters.zh_numerals import parse_chinese_number, to_chinese_number
from lengthwise.builders.corpus import CorpusSettings, process_document
from lengthwise.builders.sources.local import read_local
from lengthwise.records import Book, SourceDocument
from lengthwise.spec import ChaptersConfig, CleaningConfig

_HEADING_LINE = re.compile(r"(?m)^[ \t\u3000]*第([一二三四五六七八九十百零〇]+)回[ \t\u3000]*(.*)$")
FORMS: dict[str, Callable[[int, str], str]] = {
    "numeral alone": lambda n, title: to_chinese_number(n),
    "numeral and title": lambda n, title: f"{to_chinese_number(n)}、{title}",
    "bracketed numeral": lambda n, title: f"（{to_chinese_number(n)}）",
    "digits and title": lambda n, title: f"{n}. {title}",
}
SETTINGS = CorpusSettings("auto", CleaningConfig(), ChaptersConfig())


def _book(doc: SourceDocument) -> Book:
    book, report = process_document(doc, SETTINGS)
    assert book is not None, report.excluded
    return book


def _renumbered(
    doc: SourceDocument, headings: set[str], form: Callable[[int, str], str]
) -> SourceDocument:
    """`doc` with each line that is one of the original's chapter `headings` reprinted."""

    def heading(match: re.Match[str]) -> str:
        if match.group(0).strip() not in headings:
            return match.group(0)  # `第四回中既将…`: a sentence that starts like a heading
        return form(parse_chinese_number(match.group(1)), match.group(2).strip())

    text = _HEADING_LINE.sub(heading, doc.text.replace("\r\n", "\n"))
    return SourceDocument(**{**vars(doc), "text": text})


@pytest.mark.parametrize("name", ["hongloumeng_utf8.txt", "shuihu_utf8.txt"])
@pytest.mark.parametrize("form", list(FORMS))
def test_bare_numeral_chapters_are_the_originals(
    shared_corpora: Path, name: str, form: str
) -> None:
    [doc] = read_local(shared_corpora / "zh_simplified_four_classics" / name)
    assert isinstance(doc, SourceDocument)
    original = _book(doc)
    headings = {c.heading for c in original.chapters}
    renumbered = _book(_renumbered(doc, headings, FORMS[form]))
    assert [c.number for c in renumbered.chapters] == [c.number for c in original.chapters]
    assert [c.text for c in renumbered.chapters] == [c.text for c in original.chapters]


def test_keyword_headings_win_and_short_lists_are_not_chapters() -> None:
    body = "他说了许多话，大家都听着，一直到天黑才散去。" * 20
    listed = "\n".join(f"{to_chinese_number(n)}、要紧的事" for n in range(1, 6))
    # A numbered list in a book with 第X回 headings stays in its chapter.
    text = "".join(f"第{to_chinese_number(n)}回 标题\n{body}\n{listed}\n" for n in range(1, 4))
    detection = detect_chapters(text, "zh")
    assert [c.number for c in detection.chapters] == [1, 2, 3]
    # A list alone (items of a few characters) is no book of chapters.
    assert detect_chapters(f"{body}\n{listed}\n{body}", "zh").chapters == []


def test_heading_lines_in_chinese_text_only() -> None:
    assert is_zh_bare_heading("十一、还受生唐王遵善果 度孤魂萧瑀正空门")
    assert is_zh_bare_heading("（三）") and is_zh_bare_heading("12. 归来")
    assert not is_zh_bare_heading("一、他走了，又回来。")  # a sentence, not a title
    assert not is_zh_bare_heading("1805") and not is_zh_bare_heading("(1) A note")
