"""Traditional-script books: site rules and site words are written in simplified
characters and match traditional text through a folded view, without changing a single
character of the book except what they remove."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import opencc
import pytest

from lengthwise.builders.cleaning import clean_text
from lengthwise.builders.cleaning.script_fold import fold, is_traditional
from lengthwise.spec import CleaningConfig

_TO_TRADITIONAL = opencc.OpenCC("s2t")


def _classic(shared_corpora: Path, name: str) -> str:
    path = shared_corpora / "zh_simplified_four_classics" / f"{name}.txt"
    return path.read_text(encoding="utf-8").replace("\r\n", "\n")


def test_folding_keeps_length_and_reads_traditional_as_simplified() -> None:
    text = "他說：請記住本站網址，這裡最新章節免費閱讀。abc"
    assert fold(text) == "他说：请记住本站网址，这里最新章节免费阅读。abc"
    assert len(fold(text)) == len(text)
    assert is_traditional(text) and not is_traditional(fold(text))


def test_the_shared_traditional_gutenberg_books_are_traditional(shared_corpora: Path) -> None:
    for path in sorted((shared_corpora / "zh_pg_flattened").glob("*.txt")):
        assert is_traditional(path.read_text(encoding="utf-8")), path.name
    assert not is_traditional(_classic(shared_corpora, "sanguo_utf8"))


@pytest.mark.slow
@pytest.mark.parametrize("name", ["hongloumeng_utf8", "xiyouji_utf8"])
def test_a_traditional_copy_loses_what_the_simplified_book_loses(
    shared_corpora: Path, name: str
) -> None:
    """The shared classics' real site adverts and notices, in traditional script."""
    simplified = _classic(shared_corpora, name)
    traditional = _TO_TRADITIONAL.convert(simplified)
    plain = clean_text(simplified, "zh", CleaningConfig())
    cleaned = clean_text(traditional, "zh", CleaningConfig())
    assert cleaned.removed == plain.removed
    assert any(rule.startswith("zh-web/") for rule in cleaned.removed)
    # Folding is for matching only: the book keeps its own characters.
    new = set(cleaned.text) - set(traditional)
    assert all(unicodedata.category(char).startswith("P") for char in new), new


@pytest.mark.slow
def test_a_traditional_site_plea_is_learned(shared_corpora: Path) -> None:
    traditional = _TO_TRADITIONAL.convert(_classic(shared_corpora, "xiyouji_utf8"))
    plea = "請記住：青竹書閣最新章節免費閱讀。"  # site words in traditional forms only
    heading = re.compile(r"(?m)^第[一二三四五六七八九十百]+回")
    starts = [m.start() for m in heading.finditer(traditional)][1:]
    pieces, last = [], 0
    for start in starts:
        pieces += [traditional[last:start], plea + "\n"]
        last = start
    planted = "".join(pieces) + traditional[last:]
    plain = clean_text(traditional, "zh", CleaningConfig())
    cleaned = clean_text(planted, "zh", CleaningConfig())
    assert cleaned.text == plain.text
    assert cleaned.removed["learned/boilerplate-line"] == len(starts)
