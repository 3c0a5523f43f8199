"""Site signatures glued to chapter ends: learned from the book, removed, counted; the
story around them, the closing formulae included, unchanged character for character."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from lengthwise.builders.cleaning.chapter_end_signatures import chapter_end_signature_edits
from lengthwise.builders.cleaning.ledger import apply_edits
from lengthwise.builders.corpus import CorpusSettings, process_document
from lengthwise.builders.sources.local import read_local_file
from lengthwise.records import Book, SourceDocument
from lengthwise.spec import ChaptersConfig, CleaningConfig

RULE = "learned/chapter-end-signature"


def _chapters(endings: list[str]) -> tuple[str, list[tuple[int, int]]]:
    text, spans = "", []
    for number, ending in enumerate(endings, 1):
        start = len(text)
        text += f"第{number}回\n    话说那人走了许多路，心中好生烦闷。{ending}\n\n"
        spans.append((start, len(text)))
    return text, spans


def test_a_glued_signature_goes_and_the_closing_formula_stays() -> None:
    formula = "且听下回分解。"
    text, spans = _chapters([f"{formula}本章由某某书屋整理校对（mmsw.net）"] * 8)
    edits, learned = chapter_end_signature_edits(text, spans, 0.3)
    assert len(edits) == 8 and learned[0].count == 8
    cleaned = apply_edits(text, edits)
    assert "mmsw" not in cleaned and "书屋" not in cleaned
    assert cleaned.count(formula + "\n") == 8


def test_digits_in_a_signature_do_not_hide_it() -> None:
    text, spans = _chapters([f"完。第{n}章 由书友上传 www.shuyou{n % 3}.com" for n in range(10)])
    edits, _ = chapter_end_signature_edits(text, spans, 0.3)
    assert len(edits) == 10
    assert "www" not in apply_edits(text, edits)


@pytest.mark.parametrize(
    "endings",
    [
        ["且听下回分解。"] * 8,  # a recurring formula, no address: the story's own
        ["访问 abc.com 查看。"] * 2 + ["完。"] * 8,  # an address in too few chapters
        ["他说网址是abc.com。"] + [f"第{n}句。" for n in range(7)],
    ],
)
def test_nothing_is_learned_without_a_recurring_address(endings: list[str]) -> None:
    text, spans = _chapters(endings)
    assert chapter_end_signature_edits(text, spans, 0.3) == ([], [])


def _book(path: Path, language: str, *disabled: str) -> tuple[Book, dict[str, int]]:
    document = read_local_file(path)
    assert isinstance(document, SourceDocument)
    cleaning = CleaningConfig(disable_rules=list(disabled))
    settings = CorpusSettings(language, cleaning, ChaptersConfig())
    book, report = process_document(document, settings)
    assert book is not None, report.excluded
    return book, report.removed


def _same_chapters(
    tmp_path: Path, clean_text: str, planted: str, language: str, *disabled: str
) -> dict[str, int]:
    """Both texts through the corpus stage: the planted book's chapters read exactly as
    the clean one's; returns the planted book's removal counts."""
    (tmp_path / "clean.txt").write_text(clean_text, encoding="utf-8")
    (tmp_path / "planted.txt").write_text(planted, encoding="utf-8")
    clean, _ = _book(tmp_path / "clean.txt", language, *disabled)
    book, removed = _book(tmp_path / "planted.txt", language, *disabled)
    assert [c.text for c in book.chapters] == [c.text for c in clean.chapters]
    return removed


def _glue(raw: str, heading: re.Pattern[str], signature: str) -> tuple[str, int]:
    """The raw book with `signature` glued to the last line before every heading."""
    starts = [m.start() for m in heading.finditer(raw)][1:]
    pieces, last = [], 0
    for start in starts:
        pieces += [raw[last:start].rstrip(), signature, "\n\n"]
        last = start
    pieces.append(raw[last:])
    return "".join(pieces), len(starts)


def _random_site(rng: random.Random) -> tuple[str, str]:
    letters = "abcdefghijklmnopqrstuvwxyz"
    domain = "".join(rng.choice(letters) for _ in range(rng.randint(5, 9)))
    domain += rng.choice([".com", ".net", ".org", ".cn"])
    name = "".join(chr(rng.randint(0x4E00, 0x9FA5)) for _ in range(3))
    return name + rng.choice(["书屋", "文学网", "小说站"]), domain


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_sites_glued_to_a_real_zh_book(
    shared_corpora: Path, tmp_path: Path, seed: int
) -> None:
    rng = random.Random(seed)
    site, domain = _random_site(rng)
    signature = rng.choice(
        [f"本章由{site}整理校对（{domain}）", f"【{site}】录入 {domain}", f"{site}提供 {domain}"]
    )
    source = shared_corpora / "zh_simplified_four_classics" / "sanguo_utf8.txt"
    raw = source.read_text(encoding="utf-8").replace("\r\n", "\n")
    planted, glued = _glue(raw, re.compile(r"(?m)^第[一二三四五六七八九十百]+回"), signature)
    # A signature ending in a bare domain makes every chapter's last paragraph end in a
    # letter before it is removed, which turns off the broken-paragraph rule's habit
    # test for this book (too many open paragraph ends): compare without that rule.
    rejoin = "common/rejoin-broken-paragraphs"
    removed = _same_chapters(tmp_path, raw, planted, "zh", rejoin)
    # A bracketed part recurring inside the text may go first, under its own rule
    # (zh-web/recurring-brackets), and a site name with its address glued to the text is
    # a disguised watermark (common/disguised-watermark); whatever is left goes here.
    earlier = ("zh-web/recurring-brackets", "common/disguised-watermark")
    assert removed.get(RULE, 0) + sum(removed.get(rule, 0) for rule in earlier) >= glued


@pytest.mark.slow
def test_a_signature_glued_to_english_chapters(shared_corpora: Path, tmp_path: Path) -> None:
    signature = " Proofread by the Old Harbour team, harbour-etexts.org"
    raw = (shared_corpora / "en_pg_stripped" / "pride_and_prejudice.txt").read_text("utf-8")
    planted, glued = _glue(raw, re.compile(r"(?m)^Chapter \d+"), signature)
    assert _same_chapters(tmp_path, raw, planted, "en")[RULE] == glued


@pytest.mark.slow
@pytest.mark.parametrize(
    ("closing", "plea"),
    [
        ("", "喜欢西游记请大家收藏：青竹书阁 西游记最新章节更新速度全网最快。"),
        ("——", "（本章完）看最新章节请到青竹书阁"),
    ],
)
def test_a_site_plea_without_an_address_glued_to_chapter_ends(
    shared_corpora: Path, tmp_path: Path, closing: str, plea: str
) -> None:
    """No address, only site words (site_terms.py), glued after the last sentence or a
    dash; 西游记 was not looked at while the rule was written."""
    source = shared_corpora / "zh_simplified_four_classics" / "xiyouji_utf8.txt"
    raw = source.read_text(encoding="utf-8").replace("\r\n", "\n")
    heading = re.compile(r"(?m)^第[一二三四五六七八九十百]+回")
    ended, _ = _glue(raw, heading, closing)  # what the chapters end with, before the plea
    planted, glued = _glue(raw, heading, closing + plea)
    assert _same_chapters(tmp_path, ended, planted, "zh")[RULE] == glued
