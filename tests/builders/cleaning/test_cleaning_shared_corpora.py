"""Cleaning the real shared corpora: the known noise goes, the story and headings stay."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lengthwise.builders.cleaning import RULES_BY_NAME, CleaningResult, clean_text
from lengthwise.spec import CleaningConfig

ZH_FILES = ("hongloumeng_utf8.txt", "xiyouji_utf8.txt", "sanguo_utf8.txt", "shuihu_utf8.txt")
EN_FILES = (
    "alice_in_wonderland.txt",
    "moby_dick.txt",
    "pride_and_prejudice.txt",
    "sherlock.txt",
    "tom_sawyer.txt",
    "war_and_peace.txt",
)
HUI_HEADING = re.compile(r"^\s*第[一二三四五六七八九十百零〇]+回", re.MULTILINE)
EN_HEADING = re.compile(r"^\s*(?:CHAPTER|Chapter|ADVENTURE|BOOK|EPILOGUE)\b", re.MULTILINE)


def read(path: Path) -> str:
    # As the sources stage hands documents over: decoded, LF line ends.
    return path.read_text(encoding="utf-8").replace("\r\n", "\n")


@pytest.fixture(scope="module")
def zh_cleaned(shared_corpora: Path) -> dict[str, tuple[str, CleaningResult]]:
    folder = shared_corpora / "zh_simplified_four_classics"
    texts = {name: read(folder / name) for name in ZH_FILES}
    return {name: (text, clean_text(text, "zh", CleaningConfig())) for name, text in texts.items()}


@pytest.mark.parametrize("name", ZH_FILES)
def test_hui_heading_lines_survive_cleaning(
    zh_cleaned: dict[str, tuple[str, CleaningResult]], name: str
) -> None:
    raw, result = zh_cleaned[name]
    assert len(HUI_HEADING.findall(result.text)) == len(HUI_HEADING.findall(raw))
    assert result.rulesets == ["common", "zh", "zh-web"]


def test_hongloumeng_nav_bar_and_site_block_are_removed(
    zh_cleaned: dict[str, tuple[str, CleaningResult]],
) -> None:
    raw, result = zh_cleaned["hongloumeng_utf8.txt"]
    assert raw.count("首页|原创书库") == 2
    assert "首页|原创书库" not in result.text
    assert result.removed["zh-web/nav-bar"] == 2
    assert "首页|原创书库" in result.examples["zh-web/nav-bar"][0]
    assert "本站长期招收" not in result.text and result.removed["zh-web/site-notice"] == 2
    assert not re.search(r"^\s*(?:前一页|后一页|回目录|回首页)\s*$", result.text, re.MULTILINE)
    # The heading of 第三十八回 is followed by the story, not by site links.
    heading = result.text.index("第三十八回  林潇湘魁夺菊花诗")
    assert "话说宝钗湘云二人计议已妥" in result.text[heading : heading + 200]


def test_xiyouji_injected_advert_is_cut_and_sentence_rejoined(
    zh_cleaned: dict[str, tuple[str, CleaningResult]],
) -> None:
    raw, result = zh_cleaned["xiyouji_utf8.txt"]
    assert "shuyaya" in raw and "shuyaya" not in result.text
    assert "献至楼下不见了唐僧。这个也来问那个也来寻" in result.text
    assert result.removed["zh-web/site-advert"] >= 1
    assert any("shuyaya" in example for example in result.examples["zh-web/site-advert"])
    # 丫丫叉叉 is the novel's own wording, not the 三国 watermark.
    assert result.text.count("丫丫叉叉") == raw.count("丫丫叉叉") == 5


def test_sanguo_watermarks_are_removed(zh_cleaned: dict[str, tuple[str, CleaningResult]]) -> None:
    raw, result = zh_cleaned["sanguo_utf8.txt"]
    assert raw.count("丫丫电子书") == 2
    assert "丫丫电子书" not in result.text
    assert result.removed["zh-web/watermark"] == 2
    assert "皓首穷经；虽有千言" in result.text


@pytest.mark.parametrize("name", ZH_FILES)
def test_zh_classics_lose_almost_no_text(
    zh_cleaned: dict[str, tuple[str, CleaningResult]], name: str
) -> None:
    raw, result = zh_cleaned[name]
    assert len(non_space(raw)) - len(non_space(result.text)) < 0.001 * len(raw)


def non_space(text: str) -> str:
    return "".join(text.split())


@pytest.mark.parametrize("name", EN_FILES)
def test_en_pg_stripped_story_is_kept(shared_corpora: Path, name: str) -> None:
    raw = read(shared_corpora / "en_pg_stripped" / name)
    result = clean_text(raw, "en", CleaningConfig())
    lost = len(non_space(raw)) - len(non_space(result.text))
    assert 0 <= lost < 0.01 * len(non_space(raw))
    # Without PG boilerplate or web noise, only whitespace rules have anything to do, but
    # for the transcriber's note in front of Moby Dick (next test) and War and Peace's
    # translator notes, in `(2)` form and unmarked (test_symbol_footnotes.py,
    # test_unmarked_footnotes.py).
    fired = {rule for rule in result.removed if not RULES_BY_NAME[rule].whitespace_only}
    expected = {
        "moby_dick.txt": {"en/transcriber-note"},
        "war_and_peace.txt": {"en/symbol-footnote", "en/unmarked-footnote"},
    }
    assert fired == expected.get(name, set()), fired
    assert len(EN_HEADING.findall(result.text)) == len(EN_HEADING.findall(raw))


def test_moby_dick_transcriber_note_goes_without_gutenberg_markers(shared_corpora: Path) -> None:
    raw = read(shared_corpora / "en_pg_stripped" / "moby_dick.txt")
    result = clean_text(raw, "en", CleaningConfig())
    assert "gutenberg" not in result.rulesets
    assert result.removed["en/transcriber-note"] == 1
    assert "Transcriber's Notes" not in result.text and "unit of currency" not in result.text
    assert result.text.index("ETYMOLOGY.") < 100
    lost = len(non_space(raw)) - len(non_space(result.text))
    assert lost < 0.001 * len(raw)
