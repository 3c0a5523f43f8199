"""Blocks planted into copies of real shared books go whole, and the story around them is
unchanged character for character (compared with the same book cleaned without the plant)."""

from __future__ import annotations

import re
import shutil
import textwrap
from pathlib import Path

import pytest

from lengthwise.builders.cleaning import CleaningResult, clean_text
from lengthwise.builders.corpus import CorpusSettings, process_document
from lengthwise.spec import ChaptersConfig, CleaningConfig
from tests.fixtures.reprinting import processed, read_shared, with_text

EN_DISCLAIMER = """DISCLAIMER: This electronic edition is provided for personal use only.
The publisher makes no warranty as to the accuracy of the text and
accepts no liability for errors. All rights in the illustrations are
reserved by their respective copyright holders. Reproduction of this
file for commercial purposes requires the written permission of the
publisher and of the copyright holders, 1998."""
ZH_DISCLAIMER = """免责声明：
本书来自互联网，版权归原作者所有。
本站仅提供存储空间，所有作品仅供学习交流，请勿用于商业用途。
如有侵权，请联系本站删除，我们将在24小时内处理。
请支持正版，购买正版书籍。
更多精彩小说请访问本站，本站所有小说均来自网友上传。"""
# A paragraph of the Scarlet Letter in front of which the plants go.
EN_ANCHOR = "It may be, however,—O, transporting and triumphant thought!"
ZH_ANCHOR = "    话说平儿出来吩咐林之孝家的道"


def copy_of(shared_corpora: Path, tmp_path: Path, relative: str) -> str:
    target = tmp_path / Path(relative).name
    shutil.copy(shared_corpora / relative, target)
    return target.read_text(encoding="utf-8").replace("\r\n", "\n")


def plant(text: str, anchor: str, block: str) -> str:
    assert text.count(anchor) == 1, anchor
    at = text.index(anchor)
    return text[:at] + block + text[at:]


def clean(text: str, language: str, **settings: object) -> CleaningResult:
    return clean_text(text, language, CleaningConfig.model_validate(settings))


@pytest.fixture(scope="module")
def scarlet(shared_corpora: Path, tmp_path_factory: pytest.TempPathFactory) -> str:
    return copy_of(shared_corpora, tmp_path_factory.mktemp("en"), "en_pg_raw/pg25344.txt")


def test_six_line_english_disclaimer_goes_whole(scarlet: str) -> None:
    base = clean(scarlet, "en")
    planted = clean(plant(scarlet, EN_ANCHOR, EN_DISCLAIMER + "\n\n"), "en")
    assert planted.text == base.text
    assert planted.removed["en/notice-block"] == base.removed["en/notice-block"] + 1
    assert "warranty" not in planted.text and "commercial purposes" not in planted.text


def test_six_line_chinese_disclaimer_goes_whole(shared_corpora: Path, tmp_path: Path) -> None:
    raw = copy_of(shared_corpora, tmp_path, "zh_simplified_four_classics/hongloumeng_utf8.txt")
    base = clean(raw, "zh")
    planted = clean(plant(raw, ZH_ANCHOR, ZH_DISCLAIMER + "\n\n"), "zh")
    assert planted.text == base.text
    assert planted.removed["zh-web/notice-block"] == base.removed.get("zh-web/notice-block", 0) + 1
    assert "版权归原作者所有" not in planted.text and "请支持正版" not in planted.text


def test_footnote_marker_and_body_go_together_or_stay_together(scarlet: str) -> None:
    marked = scarlet.replace("THE TOWN PUMP!\n", "THE TOWN PUMP![7]\n", 1)
    note = "[7] The pump stood in front of the Custom-House until\nthe year 1860.\n\n"
    planted = plant(marked, "[Illustration]\n\n\n\n\n[Illustration: The Prison Door]", note)
    base, removed = clean(scarlet, "en"), clean(planted, "en")
    assert removed.text == base.text
    assert removed.removed["en/footnote-block"] == base.removed.get("en/footnote-block", 0) + 1
    kept = clean(planted, "en", footnotes="keep")
    assert "THE TOWN PUMP![7]" in kept.text and "[7] The pump stood" in kept.text
    assert "again.[1]" in kept.text and "[Footnote 1: At the time" in kept.text
    assert not {"en/footnote-block", "en/footnote-text", "en/footnote-marker"} & set(kept.removed)


def test_illustration_block_goes_but_the_heading_inside_stays(scarlet: str) -> None:
    heading = "CHAPTER XXV. THE DEPARTURE"
    block = (
        f"[Illustration: {heading}\n\n    Drawn by Mary Hallock Foote.\n\n"
        "    Copyright, 1878, by James R. Osgood & Co.]\n\n"
    )
    planted = clean(plant(scarlet, EN_ANCHOR, block), "en")
    expected = clean(plant(scarlet, EN_ANCHOR, heading + "\n\n"), "en")
    assert planted.text == expected.text
    assert f"\n\n{heading}\n\n{EN_ANCHOR}" in planted.text
    assert "Osgood & Co.]" not in planted.text
    assert planted.removed["en/illustration"] == expected.removed["en/illustration"] + 1


def test_wrapped_paragraph_is_joined_and_counted(scarlet: str) -> None:
    paragraph = (
        "The wharf was quiet that morning, and the clerks who came down the long "
        "street one after another found the doors of the old building shut, the "
        "windows dim with the salt of a hundred winters, and nobody at all to "
        "tell them why the Surveyor had not come."
    )
    wrapped = textwrap.fill(paragraph, width=68)
    planted = clean(plant(scarlet, EN_ANCHOR, wrapped + "\n\n"), "en")
    base = clean(scarlet, "en")
    assert f"\n{paragraph}\n" in planted.text
    assert planted.text.replace(paragraph + "\n\n", "", 1) == base.text
    joins = planted.removed["common/unwrap-paragraphs"] - base.removed["common/unwrap-paragraphs"]
    assert joins == wrapped.count("\n")


def test_unwrapping_can_be_switched_off(scarlet: str) -> None:
    result = clean(scarlet, "en", unwrap_paragraphs=False)
    assert "common/unwrap-paragraphs" not in result.removed
    assert "A throng of bearded men, in sad-colored garments, and gray,\n" in result.text


def test_back_matter_after_the_end_goes_as_one_block(shared_corpora: Path, tmp_path: Path) -> None:
    raw = copy_of(shared_corpora, tmp_path, "en_pg_stripped/alice_in_wonderland.txt")
    assert raw.rstrip().endswith("THE END")
    advertisement = (
        "\n\n\nADVERTISEMENTS.\n\nNEW BOOKS FOR CHILDREN, published by Macmillan and Co.\n"
        "Price 6s. each, with forty-two illustrations.\n\n"
        "PRINTED BY R. CLAY, SONS, AND TAYLOR, BREAD STREET HILL, LONDON.\n"
    )
    base, planted = clean(raw, "en"), clean(raw.rstrip() + advertisement, "en")
    assert planted.text == base.text
    assert planted.removed["en/back-matter"] == 1 and "en/back-matter" not in base.removed


def test_a_notice_line_between_the_title_and_the_first_heading_leaves_both_lines_apart(
    shared_corpora: Path,
) -> None:
    """`《书名》` / one notice line / blank / `第一回 …`: removing the notice took the line end
    above it and the blank line below, so the title was glued onto the first heading and
    half of its 回目 went into the body (3 of the 4 classics)."""
    doc = read_shared(shared_corpora, "zh_simplified_four_classics", "sanguo_utf8.txt")
    reference = processed(doc)
    first = reference.chapters[0].heading
    notice = "本书来自网络，仅供预览交流，请于下载后二十四小时内删除。"
    start = doc.text.index(first)
    planted = f"《三国演义》\n{notice}\n\n{doc.text[start:]}"
    settings = CorpusSettings("auto", CleaningConfig(), ChaptersConfig())
    book, report = process_document(with_text(doc, planted), settings)
    assert book is not None
    assert report.removed["zh-web/notice-block"] == 1
    assert book.chapters[0].heading == first
    assert [c.text for c in book.chapters] == [c.text for c in reference.chapters]


def _without_blank_lines(text: str) -> str:
    """A paragraph a line, indented, no blank lines between them."""
    paragraphs = (" ".join(p.split()) for p in re.split(r"\n\s*\n", text) if p.strip())
    return "\n".join("    " + p for p in paragraphs)


@pytest.mark.parametrize(
    ("relative", "anchor"),
    [
        ("en_pg_raw/pg25344.txt", EN_ANCHOR),
        ("en_pg_stripped/pride_and_prejudice.txt", "It is a truth universally acknowledged"),
    ],
)
def test_a_disclaimer_in_a_book_without_blank_lines_takes_no_story_with_it(
    shared_corpora: Path, tmp_path: Path, relative: str, anchor: str
) -> None:
    """With no blank line to end it, the block ends where its lines stop being notice
    vocabulary (before: it ran on to the next heading, taking the story's paragraphs).
    Written against The Scarlet Letter; Pride and Prejudice checked after."""
    text = _without_blank_lines(copy_of(shared_corpora, tmp_path, relative))
    at = text.rfind("\n", 0, text.index(anchor)) + 1
    base = clean(text, "en")
    planted = clean(text[:at] + EN_DISCLAIMER + "\n" + text[at:], "en")
    assert planted.text == base.text
    assert planted.removed["en/notice-block"] == base.removed.get("en/notice-block", 0) + 1


def test_an_unclosed_picture_placeholder_without_blank_lines_takes_only_its_line(
    scarlet: str,
) -> None:
    text = _without_blank_lines(scarlet)
    at = text.rfind("\n", 0, text.index(EN_ANCHOR)) + 1
    base = clean(text, "en")
    planted = clean(text[:at] + "    [Illustration: THE PRISON DOOR\n" + text[at:], "en")
    assert planted.text == base.text
    assert planted.removed["en/illustration"] == base.removed.get("en/illustration", 0) + 1


@pytest.mark.parametrize(
    "note",
    [
        "    Transcriber's Notes\n    Obvious printer errors have been silently corrected.\n",
        "    Transcriber's Note: Obvious printer errors have been silently corrected.\n",
    ],
)
def test_a_transcribers_note_without_blank_lines_goes_with_its_line(
    scarlet: str, note: str
) -> None:
    """No blank line says where the note ends: it takes its line (a heading alone, the
    line below it too) and leaves no blank line behind (before: kept whole)."""
    text = _without_blank_lines(scarlet)
    at = text.rfind("\n", 0, text.index(EN_ANCHOR)) + 1
    base = clean(text, "en")
    planted = clean(text[:at] + note + text[at:], "en")
    assert planted.text == base.text
    assert planted.removed["en/transcriber-note"] == base.removed["en/transcriber-note"] + 1
