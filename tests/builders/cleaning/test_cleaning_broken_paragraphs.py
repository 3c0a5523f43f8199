"""Paragraphs broken mid-sentence by a blank line are rejoined, in punctuated books only."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lengthwise.builders.cleaning.broken_paragraphs import rejoin_broken_paragraphs
from lengthwise.builders.cleaning.cleaner import clean_text
from lengthwise.builders.cleaning.ledger import apply_edits
from lengthwise.spec import CleaningConfig

RULE = "common/rejoin-broken-paragraphs"


def _paragraphs(book: Path, count: int) -> list[str]:
    """Long punctuated paragraphs of a real book, cleaned without this rule."""
    text = book.read_text(encoding="utf-8")
    cleaned = clean_text(text, "auto", CleaningConfig(disable_rules=[RULE])).text
    found = [p.strip() for p in cleaned.split("\n\n") if len(p.strip()) > 60]
    return [p for p in found if p[-1] in "。！？”.!?\"'’"][:count]


@pytest.mark.parametrize(
    ("folder", "name", "separator"),
    [
        ("zh_simplified_four_classics", "sanguo_utf8.txt", ""),
        ("en_pg_stripped", "pride_and_prejudice.txt", " "),
    ],
)
def test_a_planted_mid_sentence_break_is_rejoined(
    shared_corpora: Path, folder: str, name: str, separator: str
) -> None:
    paragraphs = _paragraphs(shared_corpora / folder / name, 40)
    victim = paragraphs[20]
    # Split inside a word run: letters on both sides of the break, lower case for English.
    cut = next(
        i
        for i in range(len(victim) // 2, len(victim) - 25)
        if re.match(r"[\u4e00-\u9fff]{2}|[a-z] [a-z]", victim[i - 1 : i + 2])
    )
    left, right = victim[:cut].rstrip(), victim[cut:].lstrip()
    broken = [*paragraphs[:20], left, right, *paragraphs[21:]]
    text = "\n\n".join(broken) + "\n"
    outcome = rejoin_broken_paragraphs(text)
    assert outcome.count == 1
    assert f"{left}{separator}{right}" in outcome.text
    assert outcome.text.count("\n\n") == text.count("\n\n") - 1  # only that break went
    assert outcome.edits is not None and apply_edits(text, outcome.edits) == outcome.text


def test_headings_short_lines_and_unpunctuated_books_are_left_alone() -> None:
    prose = [
        f"段落{i}的正文写到这里就结束了，后面还有很长的一句话要说完才算完整。" for i in range(30)
    ]
    heading = [
        "这一段写到末尾却没有标点符号就被分开了后面还有",
        "第十二回  宴桃园豪杰三结义斩黄巾英雄首立功",
    ]
    text = "\n\n".join([*prose, *heading, *prose]) + "\n"
    assert rejoin_broken_paragraphs(text).count == 0  # a heading is never joined
    short = "\n\n".join([*prose, "短行没有标点", "下一行也短", *prose]) + "\n"
    assert rejoin_broken_paragraphs(short).count == 0
    # A book whose paragraphs mostly end without punctuation (verse, lists): no habit.
    verse = [
        f"第{i}行诗句写得很长很长却从来不用任何标点符号结尾就这样一直写下去" for i in range(40)
    ]
    assert rejoin_broken_paragraphs("\n\n".join(verse) + "\n").count == 0


def test_the_zh_classics_lose_their_mid_sentence_breaks(shared_corpora: Path) -> None:
    folder = shared_corpora / "zh_simplified_four_classics"
    for name in ("hongloumeng_utf8.txt", "sanguo_utf8.txt", "shuihu_utf8.txt", "xiyouji_utf8.txt"):
        text = (folder / name).read_text(encoding="utf-8")
        result = clean_text(text, "auto", CleaningConfig())
        assert result.removed.get(RULE, 0) > 0, name
        breaks = re.findall(r"[\u4e00-\u9fff]{20}\n\n[\u4e00-\u9fff]", result.text)
        assert not [b for b in breaks if "回" not in b], (name, breaks[:3])
