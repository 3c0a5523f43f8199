"""Chapter detection on the real shared corpora (raw files: CRLF, site noise, in-file ToCs)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from lengthwise.builders.chapters import ChapterDetection, detect_chapters

ZH = "zh_simplified_four_classics"
EN = "en_pg_stripped"


def read_book(corpora: Path, folder: str, name: str) -> str:
    # The zh files are scraped with CRLF line endings; cleaning normally normalises them.
    return (corpora / folder / name).read_text(encoding="utf-8").replace("\r\n", "\n")


def detect(corpora: Path, folder: str, name: str) -> ChapterDetection:
    return detect_chapters(read_book(corpora, folder, name), "zh" if folder == ZH else "en")


@pytest.mark.parametrize(
    ("name", "count"),
    [
        ("hongloumeng_utf8.txt", 120),
        ("xiyouji_utf8.txt", 100),
        ("sanguo_utf8.txt", 120),
        ("shuihu_utf8.txt", 120),
    ],
)
def test_four_classics_have_every_hui_exactly_once(
    shared_corpora: Path, name: str, count: int
) -> None:
    result = detect(shared_corpora, ZH, name)
    numbered = [c for c in result.chapters if c.kind == "chapter"]
    assert [c.number for c in numbered] == list(range(1, count + 1))
    assert (result.gaps, result.duplicates) == ([], [])
    assert all(c.heading.startswith("第") and c.title for c in numbered)
    # No chapter cut short by a false heading (the scrape itself keeps only about 1k
    # characters of 红楼梦's 第九十二回; every other 回 has more than 2k).
    assert min(len(c.text) for c in numbered) > 900


def test_shuihu_wedge_is_its_prologue(shared_corpora: Path) -> None:
    result = detect(shared_corpora, ZH, "shuihu_utf8.txt")
    first = result.chapters[0]
    assert (first.kind, first.number, first.title) == (
        "prologue",
        None,
        "张天师祈禳瘟疫　洪太尉误走妖魔",
    )
    assert len(result.chapters) == 121  # 楔子 + 120 回


def test_hongloumeng_traps(shared_corpora: Path) -> None:
    result = detect(shared_corpora, ZH, "hongloumeng_utf8.txt")
    # A body line starting with 第四回中既将… stays in chapter 5's text.
    assert not any(c.heading.startswith("第四回中") for c in result.chapters)
    assert "第四回中既将薛家母子" in result.chapters[4].text
    # Headings printed twice (after a nav bar, with ——) are not new chapters.
    assert "第三十八回林潇湘魁夺菊花诗薛蘅芜讽和螃蟹咏——" in result.chapters[37].text
    assert result.chapters[118].heading.startswith("第一一九回")
    assert result.chapters[119].heading.startswith("第一二零回")


def test_classics_without_line_breaks(shared_corpora: Path) -> None:
    text = read_book(shared_corpora, ZH, "hongloumeng_utf8.txt").replace("\n", "")
    result = detect_chapters(text, "zh")
    assert result.numbers == list(range(1, 121))
    assert result.chapters[4].title == "游幻境指迷十二钗\u3000饮仙醪曲演红楼梦"


@pytest.mark.parametrize(
    ("name", "count"),
    [("pride_and_prejudice.txt", 61), ("alice_in_wonderland.txt", 12)],
)
def test_plain_novels(shared_corpora: Path, name: str, count: int) -> None:
    result = detect(shared_corpora, EN, name)
    assert result.numbers == list(range(1, count + 1))
    assert (result.gaps, result.duplicates, result.story_collection) == ([], [], False)


def test_moby_dick_has_135_chapters_and_the_epilogue(shared_corpora: Path) -> None:
    result = detect(shared_corpora, EN, "moby_dick.txt")
    assert len(result.chapters) == 136
    assert result.numbers == [*range(1, 136), None]
    assert result.chapters[-1].kind == "epilogue"
    assert result.chapters[0].title == "Loomings"
    assert result.front_matter_chars > 10_000  # ETYMOLOGY and EXTRACTS are front matter


def test_tom_sawyer_contents_are_not_chapters(shared_corpora: Path) -> None:
    result = detect(shared_corpora, EN, "tom_sawyer.txt")
    assert len(result.chapters) == 35
    assert result.toc_headings_dropped == 35
    # The file misprints CHAPTER XXVI as "CHAPTER XVI": reported, not hidden.
    assert result.chapters[25].heading == "CHAPTER XVI"
    assert (result.gaps, result.duplicates) == ([(26, 26)], [16])


def test_sherlock_is_a_story_collection_of_twelve(shared_corpora: Path) -> None:
    result = detect(shared_corpora, EN, "sherlock.txt")
    assert result.numbers == list(range(1, 13))
    assert result.chapters[0].title == "A SCANDAL IN BOHEMIA"
    assert result.chapters[6].heading == "VII. THE ADVENTURE OF THE BLUE CARBUNCLE"
    assert result.story_collection
    assert result.story_collection_reason == "ADVENTURE headings with unrelated titles"


def test_war_and_peace_books_and_epilogues(shared_corpora: Path) -> None:
    result = detect(shared_corpora, EN, "war_and_peace.txt")
    assert len(result.chapters) == 365
    assert result.toc_headings_dropped == 365 + 17
    per_part = Counter(c.part for c in result.chapters)
    assert len(per_part) == 17
    assert per_part["FIRST EPILOGUE: 1813 - 20"] == 16
    assert per_part["SECOND EPILOGUE"] == 12
    assert list(per_part)[:2] == ["BOOK ONE: 1805", "BOOK TWO: 1805"]
    firsts = [
        c.number
        for i, c in enumerate(result.chapters)
        if i == 0 or c.part != result.chapters[i - 1].part
    ]
    assert firsts == [1] * 17  # numbering restarts in every book
    assert (result.gaps, result.duplicates) == ([], [])
