"""Block removal, unwrapping and damage counts on the real shared corpora."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lengthwise.builders.cleaning import CleaningResult, clean_text
from lengthwise.builders.cleaning.damage import count_damage
from lengthwise.builders.corpus import CorpusSettings, process_document
from lengthwise.builders.sources.local import read_local_file
from lengthwise.records import SourceDocument
from lengthwise.spec import ChaptersConfig, CleaningConfig

pytestmark = pytest.mark.slow


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8").replace("\r\n", "\n")


def clean(path: Path, language: str) -> tuple[str, CleaningResult]:
    raw = read(path)
    return raw, clean_text(raw, language, CleaningConfig())


def test_scarlet_letter_blocks_go_whole_and_paragraphs_are_unwrapped(
    shared_corpora: Path,
) -> None:
    _, result = clean(shared_corpora / "en_pg_raw" / "pg25344.txt", "en")
    removed = result.removed
    assert removed["en/notice-block"] == 1 and removed["en/back-matter"] == 1
    assert removed["en/illustration"] == 76 and "[Illustration" not in result.text
    # The title page's copyright block, all four lines of it.
    for line in ("COPYRIGHT, 1850 AND 1877.", "OSGOOD & CO.", "All rights reserved.", "1874."):
        assert line not in result.text
    # Colophon and the typo list after the story; the story's last line stays last.
    assert "Electrotyped" not in result.text and "Typos fixed" not in result.text
    assert result.text.rstrip().endswith("“ON A FIELD, SABLE, THE LETTER A, GULES.”")
    # The footnote and its marker both went.
    assert "again.[1]" not in result.text and "At the time of writing" not in result.text
    opening = (
        "A throng of bearded men, in sad-colored garments, and gray, steeple-crowned hats, "
        "intermixed with women, some wearing hoods and others bareheaded, was assembled"
    )
    assert f"\n{opening}" in result.text
    assert "PREFACE TO THE SECOND EDITION." in result.text


def test_monte_cristo_footnote_section_goes_as_one_block(shared_corpora: Path) -> None:
    _, result = clean(shared_corpora / "en_pg_raw" / "pg1184.txt", "en")
    assert result.removed["en/footnote-block"] == 1
    assert "FOOTNOTES:" not in result.text and "Knocked on the head." not in result.text
    assert result.text.rstrip().endswith("“‘Wait and hope (Fac et spera)!’”")
    assert "Countess G—— entered." in result.text  # the book's own dash spacing


@pytest.mark.parametrize(
    ("name", "chapters"), [("pg1184.txt", 117), ("pg175.txt", 28), ("pg25344.txt", 24),
                           ("pg514.txt", 47)],
)  # fmt: skip
def test_raw_gutenberg_chapter_counts_hold(shared_corpora: Path, name: str, chapters: int) -> None:
    doc = read_local_file(shared_corpora / "en_pg_raw" / name)
    assert isinstance(doc, SourceDocument)
    settings = CorpusSettings("auto", CleaningConfig(), ChaptersConfig())
    _, report = process_document(doc, settings)
    assert report.chapters == chapters
    assert report.removed["common/unwrap-paragraphs"] > 1000
    assert report.damage == count_damage("").to_dict()  # nothing damaged in these


def test_flattened_chinese_is_neither_unwrapped_nor_cut(shared_corpora: Path) -> None:
    for path in sorted((shared_corpora / "zh_pg_flattened").glob("*.txt")):
        raw, result = clean(path, "zh")
        assert not {"common/unwrap-paragraphs", "zh-web/notice-block"} & set(result.removed)
        assert abs(len(result.text) - len(raw)) <= 2, path.name


def test_hongloumeng_ellipses_and_placeholders_survive_and_are_counted(
    shared_corpora: Path,
) -> None:
    path = shared_corpora / "zh_simplified_four_classics" / "hongloumeng_utf8.txt"
    raw, result = clean(path, "zh")
    for run in ("．．．．．．", "……"):
        assert result.text.count(run) == raw.count(run), run
    assert "飞觥限?起来" in result.text and '"点犀?"' in result.text
    damage = count_damage(result.text)
    assert damage.placeholders >= 50 and damage.mojibake_runs >= 1
    assert len(re.findall(r"[\u4e00-\u9fff]？[\u4e00-\u9fff]", result.text)) <= len(
        re.findall(r"[\u4e00-\u9fff]？[\u4e00-\u9fff]", raw)
    )
