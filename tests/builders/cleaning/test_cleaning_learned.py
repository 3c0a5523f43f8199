"""Learned boilerplate: planted site furniture on copies of real books is removed and
counted, the narrative around it is unchanged, and real repetition is kept."""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import pytest

from lengthwise.builders.cleaning import CleaningResult, clean_text
from lengthwise.builders.cleaning.line_signatures import book_signatures, corpus_boilerplate
from lengthwise.spec import CleaningConfig

ZH_HEADING = re.compile(r"^第[一二三四五六七八九十百零〇○]+回", re.MULTILINE)
EN_HEADING = re.compile(r"^Chapter \d+", re.MULTILINE)


def _copy(shared_corpora: Path, tmp_path: Path, relative: str) -> str:
    copy = tmp_path / Path(relative).name
    shutil.copy(shared_corpora / relative, copy)
    return copy.read_text(encoding="utf-8").replace("\r\n", "\n")


def _before_headings(text: str, heading: re.Pattern[str], lines: list[str]) -> str:
    """`lines` inserted before every heading but the first (they end each chapter)."""
    starts = [m.start() for m in heading.finditer(text)][1:]
    pieces, last = [], 0
    for start in starts:
        pieces += [text[last:start], *(line + "\n" for line in lines)]
        last = start
    return "".join(pieces) + text[last:]


def _cleaned_alike(raw: str, planted: str, language: str) -> tuple[CleaningResult, CleaningResult]:
    """Both texts cleaned; the planted one must come out exactly as the raw one."""
    plain = clean_text(raw, language, CleaningConfig())
    cleaned = clean_text(planted, language, CleaningConfig())
    assert cleaned.text == plain.text
    return plain, cleaned


def _extra_removals(plain: CleaningResult, cleaned: CleaningResult) -> dict[str, int]:
    """Per rule, how many more removals the planted copy had than the plain one."""
    return {rule: n - plain.removed.get(rule, 0) for rule, n in cleaned.removed.items()}


def _page_markers(text: str, every: int, shape: str) -> tuple[str, int]:
    """A page-marker line after the line ending at or after every `every` characters."""
    pieces, last, page = [], 0, 0
    while True:
        end = text.find("\n", last + every)
        if end < 0:
            break
        page += 1
        pieces += [text[last : end + 1], shape.format(page) + "\n"]
        last = end + 1
    return "".join(pieces) + text[last:], page


@pytest.mark.slow
def test_planted_zh_furniture_is_learned_and_the_story_is_untouched(
    shared_corpora: Path, tmp_path: Path
) -> None:
    raw = _copy(shared_corpora, tmp_path, "zh_simplified_four_classics/hongloumeng_utf8.txt")
    # A site rule (zh-web) takes the credit line; the header and pages are learned.
    signature = "本书由书香小站 shuxiang.example.net 录入校对"
    header = "曹雪芹  红楼梦"
    planted = _before_headings(raw, ZH_HEADING, [signature, header])
    planted, pages = _page_markers(planted, 2000, "第{}页")
    plain, cleaned = _cleaned_alike(raw, planted, "zh")
    assert pages > 300
    assert cleaned.removed["learned/page-marker"] == pages
    assert "曹雪芹 红楼梦" in {line.line.replace("  ", " ") for line in cleaned.learned}
    assert cleaned.removed["learned/boilerplate-line"] == 119
    extra = _extra_removals(plain, cleaned)
    assert {k: v for k, v in extra.items() if v} == {
        "zh-web/download-disclaimer": 119,  # 录入校对 credits
        "learned/page-marker": pages,
        "learned/boilerplate-line": 119,
    }
    assert "learned/boilerplate-line" in cleaned.chars_removed


@pytest.mark.slow
def test_planted_en_furniture_is_learned_and_the_story_is_untouched(
    shared_corpora: Path, tmp_path: Path
) -> None:
    raw = _copy(shared_corpora, tmp_path, "en_pg_stripped/pride_and_prejudice.txt")
    signature = "Scanned and proofread by FreeReads, www.freereads.example.org"
    header = "JANE AUSTEN    PRIDE AND PREJUDICE"
    planted = _before_headings(raw, EN_HEADING, [signature, header])
    planted, pages = _page_markers(planted, 2000, "- {} -")
    _, cleaned = _cleaned_alike(raw, planted, "en")
    assert cleaned.removed["learned/page-marker"] == pages
    assert cleaned.removed["learned/boilerplate-line"] == 2 * 60
    learned = {line.line: line.count for line in cleaned.learned}
    assert learned[signature] == 60 and learned[header] == 60
    # Switched off, nothing is learned and the furniture stays.
    off = clean_text(planted, "en", CleaningConfig(learned_boilerplate=False))
    assert header in off.text and not off.learned


@pytest.mark.slow
def test_refrains_poems_and_chapter_formulae_are_kept(shared_corpora: Path, tmp_path: Path) -> None:
    raw = _copy(shared_corpora, tmp_path, "zh_simplified_four_classics/sanguo_utf8.txt")
    formula = "未知后事如何，且听下回分解。"
    poem = "滚滚长江东逝水，浪花淘尽英雄。"
    refrain = "是非成败转头空"  # no punctuation at all, repeated mid-chapter
    planted = _before_headings(raw, ZH_HEADING, [formula])
    paragraphs = planted.split("\n\n")
    for k in range(40, len(paragraphs), 200):
        paragraphs[k] += f"\n{poem}\n{refrain}"
    planted = "\n\n".join(paragraphs)
    cleaned = clean_text(planted, "zh", CleaningConfig())
    assert cleaned.text.count(formula) == 119
    assert cleaned.text.count(poem) == planted.count(poem) >= 5
    assert cleaned.text.count(refrain) == planted.count(refrain)
    assert not cleaned.learned


@pytest.mark.slow
def test_nothing_is_learned_from_the_development_books(shared_corpora: Path) -> None:
    """Books the thresholds were written against: clean, so nothing may be learned."""
    for relative, language in [
        ("zh_simplified_four_classics/hongloumeng_utf8.txt", "zh"),
        ("zh_simplified_four_classics/sanguo_utf8.txt", "zh"),
        ("en_pg_stripped/pride_and_prejudice.txt", "en"),
    ]:
        text = (shared_corpora / relative).read_text(encoding="utf-8")
        learned = clean_text(text, language, CleaningConfig()).learned
        # (红楼梦's ASCII quote pair is learned too, by zh/ascii-quote-pairs: not boilerplate)
        assert [line for line in learned if line.rule.startswith("learned/")] == [], relative


def test_heading_prefix_marker_goes_with_the_heading() -> None:
    chapters = [
        f"正文 第{n}章 标题{n}\n\n    这是第{n}章的故事，他走了很远的路。\n\n    天黑了。\n"
        for n in "一二三四五六七八"
    ]
    cleaned = clean_text("\n".join(chapters), "zh", CleaningConfig())
    assert "正文" not in cleaned.text
    assert cleaned.removed["learned/heading-marker"] == 8
    assert "天黑了。\n\n第二章 标题二" in cleaned.text


def test_marker_line_before_headings_does_not_end_the_previous_chapter() -> None:
    chapters = [
        f"第{n}章 标题{n}\n\n    这是第{n}章的故事，他走了很远的路。\n\n    天黑了。\n\nVIP章节\n"
        for n in "一二三四五六七八"
    ]
    cleaned = clean_text("\n".join(chapters), "zh", CleaningConfig())
    assert "VIP章节" not in cleaned.text
    assert cleaned.removed["learned/heading-marker"] == 8


def test_a_line_in_several_books_is_corpus_furniture() -> None:
    books = [
        f"第一章 开始\n\n拾穗文库 校对版\n\n    故事{n}，一个人走了。\n\n"
        "第二章 结束\n\n    他又回来了。\n"
        for n in range(3)
    ]
    per_book = [book_signatures(text, 100) for text in books]
    corpus = corpus_boilerplate(per_book, min_books=3)
    # Headings shared by the books are candidates too, but never removed from a book.
    assert corpus == {"拾穗文库 校对版", "第一章 开始", "第二章 结束"}
    cleaned = clean_text(books[0], "zh", CleaningConfig(), corpus_lines=corpus)
    assert "拾穗文库" not in cleaned.text and "第一章 开始" in cleaned.text
    assert [line.scope for line in cleaned.learned] == ["corpus"]
    assert corpus_boilerplate(per_book[:2], min_books=3) == frozenset()


def test_a_punctuated_plea_in_several_books_is_corpus_furniture_a_sentence_is_not() -> None:
    plea, sentence = "看完记得收藏本站，下次阅读更方便。", "他们从此过上了好日子。"
    books = [
        f"第一章 开始\n\n    故事{n}，一个人走了。\n\n{plea}\n\n{sentence}\n" for n in range(3)
    ]
    corpus = corpus_boilerplate([book_signatures(text, 100) for text in books], min_books=3)
    assert plea in corpus and sentence not in corpus
    cleaned = clean_text(books[0], "zh", CleaningConfig(), corpus_lines=corpus)
    assert plea not in cleaned.text and sentence in cleaned.text


# Pleas in shapes the rules were not written against (site_terms.py was written against
# a 红楼梦 copy; these go into 西游记, which was not looked at).
_PLEAS = [
    "喜欢{book}的朋友请收藏本站，{site}更新最快。",
    "{site}提醒您：看完记得收藏，下次阅读更方便！",
    "本书首发{site}，请支持作者。",
    "请记住本书首发域名：{site}。手机版阅读网址：{site}",
]


@pytest.mark.slow
@pytest.mark.parametrize("plea", _PLEAS)
def test_punctuated_site_pleas_at_chapter_ends_are_learned(
    shared_corpora: Path, tmp_path: Path, plea: str
) -> None:
    raw = _copy(shared_corpora, tmp_path, "zh_simplified_four_classics/xiyouji_utf8.txt")
    line = plea.format(book="西游记", site="青竹书阁")
    planted = _before_headings(raw, ZH_HEADING, [line])
    plain, cleaned = _cleaned_alike(raw, planted, "zh")
    extra = _extra_removals(plain, cleaned)
    # A site rule (zh-web) may know the shape; otherwise it is learned.
    (taken_by,) = [rule for rule, n in extra.items() if n == 99]
    assert taken_by == "learned/boilerplate-line" or taken_by.startswith("zh-web/")
    if taken_by.startswith("learned/"):
        (learned,) = cleaned.learned
        assert learned.line == line and "site words" in learned.why


@pytest.mark.slow
def test_a_punctuated_line_with_a_site_word_inside_chapters_stays(
    shared_corpora: Path, tmp_path: Path
) -> None:
    """Recurrence in the story is not enough: a plea must sit at chapter edges."""
    raw = _copy(shared_corpora, tmp_path, "zh_simplified_four_classics/shuihu_utf8.txt")
    line = "“这件宝贝，且收藏好了。”"
    paragraphs = raw.split("\n\n")
    for k in range(30, len(paragraphs), 60):
        paragraphs[k] += "\n" + line
    planted = "\n\n".join(paragraphs)
    cleaned = clean_text(planted, "zh", CleaningConfig())
    assert cleaned.text.count(line) == planted.count(line) >= 20
    assert not [entry for entry in cleaned.learned if entry.rule.startswith("learned/")]


def _every(text: str, every: int, shape: str, numbers: list[int]) -> tuple[str, int]:
    """`shape` with the next of `numbers` as a paragraph of its own after the paragraph
    ending at or after every `every` characters."""
    pieces, last, used = [], 0, 0
    while used < len(numbers):
        end = text.find("\n\n", last + every)
        if end < 0:
            break
        pieces += [text[last : end + 2], shape.format(numbers[used]) + "\n\n"]
        last, used = end + 2, used + 1
    return "".join(pieces) + text[last:], used


@pytest.mark.slow
def test_sparse_running_heads_go_by_their_rising_page_numbers(
    shared_corpora: Path, tmp_path: Path
) -> None:
    """A running head printed less than twice per chapter (short chapters, long pages):
    too rare for the per-chapter tests, told apart by its page number rising."""
    raw = _copy(shared_corpora, tmp_path, "en_pg_stripped/tom_sawyer.txt")
    head = "THE ADVENTURES OF TOM SAWYER{}"
    shape = head.format("            {}")
    planted, pages = _every(raw, 9000, shape, list(range(7, 400, 2)))
    _, cleaned = _cleaned_alike(raw, planted, "en")
    assert 20 <= pages < 2 * 35  # under two per chapter
    assert cleaned.removed["learned/page-marker"] == pages
    # The same line with numbers in no order is not a page number: it stays.
    shuffled = list(range(7, 400, 2))[:pages]
    random.Random(3).shuffle(shuffled)
    unordered, _ = _every(raw, 9000, shape, shuffled)
    kept = clean_text(unordered, "en", CleaningConfig())
    assert len(re.findall(r"(?m)^THE ADVENTURES OF TOM SAWYER +\d+$", kept.text)) == pages


def test_a_numbered_line_naming_a_chapter_is_never_a_page_marker() -> None:
    """Headings not set off by a blank line (printed right under the last paragraph)
    are weak heading candidates; they recur with varying numbers like page markers and
    often enough to pass for furniture, but furniture never says "Chapter"."""
    paragraph = "He walked along the river until the light began to fail and it was late."
    chapters = [f"{paragraph}\n\n{paragraph}\nChapter {n}\n\n{paragraph}" for n in range(1, 30)]
    cleaned = clean_text("\n\n".join(chapters) + "\n", "en", CleaningConfig())
    assert not any(rule.startswith("learned/") for rule in cleaned.removed)
    assert all(f"\nChapter {n}\n" in cleaned.text for n in range(1, 30))


def test_a_refrain_after_an_unfinished_verse_line_is_not_page_furniture() -> None:
    """A song's refrain follows a line ending in a comma (no sentence finished), but the
    next line opens with a capital, as verse does: it is not inside a sentence."""
    prose = (
        "The sailors sang as they hauled the ropes, and the wind carried the song over "
        "the grey water to the shore where the children listened."
    )
    verse = "The wind is in the rigging,\nHeigh-ho the holly\nAnd home we go tonight."
    around = "\n\n".join([prose] * 4)
    chapters = [f"CHAPTER {n}\n\n{around}\n\n{verse}\n\n{around}" for n in range(1, 31)]
    cleaned = clean_text("\n\n".join(chapters) + "\n", "en", CleaningConfig())
    assert cleaned.text.count("Heigh-ho the holly") == 30
