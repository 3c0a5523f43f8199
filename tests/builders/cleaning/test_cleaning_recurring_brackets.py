"""Bracketed site notes repeated inside the text: learned per book, removed, counted; the
story around them unchanged character for character."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from lengthwise.builders.cleaning.cleaner import clean_text
from lengthwise.builders.cleaning.recurring_brackets import (
    MIN_REPEATS,
    remove_recurring_brackets,
)
from lengthwise.builders.corpus import process_document
from lengthwise.spec import CleaningConfig
from tests.fixtures.planting import chapter_tuples, plant_after, planted_in_chapters
from tests.fixtures.reprinting import SETTINGS, processed, read_shared

RULE = "zh-web/recurring-brackets"
SENTENCE = "话说天下大势，分久必合，合久必分。"


NOTES = ["【某某文学网】", "（某某书屋首发，请支持正版阅读）", "[某某站 www]"]


@pytest.mark.parametrize("note", NOTES)
def test_a_recurring_note_goes_and_the_story_stays(note: str) -> None:
    story = SENTENCE * 300
    planted, count = plant_after(story, "。", note, 100)
    outcome = remove_recurring_brackets(planted)
    assert outcome.count == count and outcome.text == story
    assert outcome.learned[0].count == count


def test_a_note_alone_on_its_line_goes_with_the_line() -> None:
    """One-line paragraphs: no empty line (a new paragraph break) is left behind."""
    lines = [f"{SENTENCE[:-1]}{i}。" for i in range(30)]
    planted = "\n".join(
        f"{line}\n　　（本章未完，请翻页）" if i % 2 else line for i, line in enumerate(lines)
    )
    outcome = remove_recurring_brackets(planted + "\n（本章未完，请翻页）")
    assert outcome.text == "\n".join(lines) + "\n"  # the last line's break stays
    assert outcome.count == 16


@pytest.mark.parametrize(
    "text",
    [
        "".join(f"{SENTENCE}（注：此处言第{i}事，与前{i % 5}回不同）" for i in range(40)),
        "".join(f"{SENTENCE}（其{'甲乙丙丁戊己庚辛'[i % 8]}人也）" for i in range(40)),
        f"{SENTENCE}【某某文学网】" * (MIN_REPEATS - 1),
        f"{SENTENCE}【网】" * 40,  # too short to be a note
    ],
)
def test_notes_that_differ_or_are_few_stay(text: str) -> None:
    assert remove_recurring_brackets(text).count == 0


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2])
def test_random_site_notes_in_a_real_book(shared_corpora: Path, seed: int) -> None:
    rng = random.Random(seed)
    site = "".join(chr(rng.randint(0x4E00, 0x9FA5)) for _ in range(3))
    note = rng.choice(["【{site}文学网】", "（{site}书屋首发，请支持正版）", "[{site}小说站]"])
    raw = (shared_corpora / "zh_simplified_four_classics" / "sanguo_utf8.txt").read_text(
        encoding="utf-8"
    )
    planted, count = plant_after(
        raw.replace("\r\n", "\n"), "。", note.replace("{site}", site), 3000
    )
    plain = clean_text(raw, "zh", CleaningConfig())
    cleaned = clean_text(planted, "zh", CleaningConfig())
    assert cleaned.removed[RULE] == count
    assert cleaned.text == plain.text
    # What was learned reaches the reports, with the learned step's lines.
    assert [line.count for line in cleaned.learned if line.rule == RULE] == [count]


def test_the_words_every_note_comes_with_go_with_it() -> None:
    story = SENTENCE * 300
    planted, count = plant_after(story, "。", "本章由某某书屋整理校对（abcd.net）", 100)
    outcome = remove_recurring_brackets(planted)
    assert outcome.count == count and outcome.text == story
    # Different words before each note are the story's: only the note goes.
    varied = "".join(f"{SENTENCE}他第{i}次说（某某书屋首发）" for i in range(30))
    kept = remove_recurring_brackets(varied).text
    assert "（" not in kept and kept.count("次说") == 30


# Adverts worded differently each time, sharing the site's name (written on 西游记 and
# 水浒传; checked here on 红楼梦 and 三国演义).
ADVERTS = [
    "『青柠书斋首发，请支持正版』",
    "『一秒记住青柠书斋，最新章节免费看』",
    "【青柠书斋：本站网址更新了】",
]


@pytest.mark.parametrize("name", ["hongloumeng_utf8.txt", "sanguo_utf8.txt"])
def test_adverts_naming_one_site_go_however_worded(shared_corpora: Path, name: str) -> None:
    doc = read_shared(shared_corpora, "zh_simplified_four_classics", name)
    expected = processed(doc)
    planted, count = planted_in_chapters(doc, expected, lambda i: ADVERTS[i % 3], "middle")
    book, report = process_document(planted, SETTINGS)
    assert book is not None
    assert chapter_tuples(book) == chapter_tuples(expected)
    assert report.removed[RULE] == count
    learned = [line for line in report.learned_boilerplate if line.rule == RULE]
    assert any("naming 青柠书斋" in line.why for line in learned)
    # The verbatim repeats (the 【】 one) are listed once, not again under the name.
    assert sum(line.count for line in learned) == count


UNWORDED = ["『青柠书斋好书不断』", "『本书由青柠书斋独家整理』"]
# A different wording in every chapter (identical notes are learned as such, above).
NUMBERS = [f"{'一二三四五六七八九'[i // 9 % 9]}{'一二三四五六七八九'[i % 9]}" for i in range(200)]


@pytest.mark.parametrize(
    "make",
    [
        # No site word in any wording: the name alone is no evidence (also when other
        # notes hold one).
        lambda i: UNWORDED[i % 2],
        lambda i: [*UNWORDED, f"（{NUMBERS[i]}首发）"][i % 3],
        # The story's own words beside a site word: mostly outside brackets.
        lambda i: f"（却说曹操首发{NUMBERS[i]}）",
        # A site word with story words glued to it is no name (`宝玉收藏` holds 收藏).
        lambda i: f"（宝玉收藏的{NUMBERS[i]}）",
    ],
)
def test_notes_sharing_a_name_without_a_site_word_or_story_words_stay(
    shared_corpora: Path, make: Callable[[int], str]
) -> None:
    doc = read_shared(shared_corpora, "zh_simplified_four_classics", "sanguo_utf8.txt")
    expected = processed(doc)
    planted, count = planted_in_chapters(doc, expected, make, "middle")
    book, report = process_document(planted, SETTINGS)
    assert book is not None
    assert RULE not in report.removed
    assert sum(make(i) in c.text for i, c in enumerate(book.chapters)) == count
