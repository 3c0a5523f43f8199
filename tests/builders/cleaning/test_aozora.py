"""Japanese as a supported language: Aozora Bunko markup and headings (issue 36).

The fixture is an excerpt of 夏目漱石『三四郎』 as Aozora Bunko publishes it
(aozorahack/aozorabunko_text@0984f7d : cards/000148/files/794_ruby_4237/794_ruby_4237.txt,
Shift_JIS, CRLF; public domain): its header lines and key to the marks, three chapters
headed `［＃７字下げ］一［＃「一」は中見出し］` with a few of their paragraphs (ruby, a
typist's correction note, a missing character `※［＃「魚＋師のつくり」、第4水準2-93-37］`),
and its colophon.
"""

from __future__ import annotations

from pathlib import Path

from lengthwise.builders.chapters import detect_chapters
from lengthwise.builders.cleaning import clean_text
from lengthwise.builders.corpus import CorpusSettings, process_document
from lengthwise.builders.sources.local import read_local
from lengthwise.records import SourceDocument
from lengthwise.spec import ChaptersConfig, CleaningConfig

FIXTURE = Path(__file__).parents[2] / "fixtures" / "aozora" / "sanshiro_excerpt_sjis.txt"


def _document() -> SourceDocument:
    [doc] = [d for d in read_local(FIXTURE) if isinstance(d, SourceDocument)]
    return doc


def test_an_aozora_book_is_built_as_japanese_with_its_own_chapters() -> None:
    """It was excluded: "only zh and en are supported"."""
    doc = _document()
    assert doc.encoding == "cp932" and (doc.title, doc.author) == ("三四郎", "夏目漱石")
    book, report = process_document(doc, CorpusSettings("auto", CleaningConfig(), ChaptersConfig()))
    assert book is not None, report.excluded
    assert book.language == "ja" and report.warnings == []
    assert [(c.heading, c.number) for c in book.chapters] == [("一", 1), ("二", 2), ("三", 3)]
    text = "\n".join(c.text for c in book.chapters)
    # Ruby, ｜ and notes gone; the glossed words and the corrected text stay.
    assert "《" not in text and "｜" not in text and "［＃" not in text
    assert "発車まぎわに頓狂な声を出して" in text and "女はやがて帰って来た。" in text
    assert "鱚またはに類して" not in text and "鱚または魳に類して" in text
    # Front matter and colophon are nobody's chapter, and no character reads as damage.
    assert "テキスト中に現れる記号" not in text and "底本" not in text and "青空文庫" not in text
    assert report.damage == {key: 0 for key in report.damage}
    assert report.outside_chapters is not None
    assert report.outside_chapters["outside_chars"] == 0


def test_cleaning_removes_each_kind_of_mark_by_its_own_rule() -> None:
    result = clean_text(_document().text, "ja", CleaningConfig())
    assert {
        "ja/aozora-front-matter": 1,
        "ja/aozora-colophon": 1,
        "ja/aozora-ruby": result.removed["ja/aozora-ruby"],
    }.items() <= result.removed.items()
    assert result.removed["ja/aozora-ruby"] >= 10 and result.removed["ja/aozora-notes"] >= 6
    assert result.text.startswith("一\n")


BODY = "　彼は黙って窓の外を眺めていた。雨はまだ止まない。" * 12


def test_japanese_headings_old_style_numerals_and_kai() -> None:
    """第壱章 … 第拾弐章 (old-style numerals) and 第一回 chapters; （一） sections inside
    them stay in their chapter."""
    numerals = ["壱", "弐", "参", "四", "五", "六", "七", "八", "九", "拾", "拾壱", "拾弐"]
    text = "".join(f"　　　第{n}章\n\n（一）\n\n{BODY}\n\n（二）\n\n{BODY}\n\n" for n in numerals)
    assert detect_chapters(text, "ja").numbers == list(range(1, 13))
    text = "".join(f"　　　　　第{n}回\n\n{BODY}\n\n" for n in "一二三四五六")
    assert detect_chapters(text, "ja").numbers == [1, 2, 3, 4, 5, 6]


def test_japanese_parts_headed_upper_middle_lower() -> None:
    """上・中・下 lines head parts whose chapters number from 一 again; without them the
    restarts read as the ends of three works in one file."""
    parts = ["上　先生と私", "中　両親と私", "下　先生と遺書"]
    text = "".join(f"{p}\n\n" + "".join(f"{n}\n\n{BODY}\n\n" for n in "一二三四") for p in parts)
    result = detect_chapters(text, "ja")
    assert result.numbers == [1, 2, 3, 4] * 3 and result.warnings == []
    assert [c.part for c in result.chapters][::4] == parts
