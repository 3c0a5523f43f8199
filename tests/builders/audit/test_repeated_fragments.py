"""`repeated_fragment`: a sentence or aside glued into the running text again and again.

Found by a held-out probe (adverts invented without reading the detectors, glued after
sentence ends into 水浒传, 三国演义, Sherlock Holmes and Tom Sawyer): cleaning learns only
furniture on its own lines, and no detector saw these. Written against those books;
checked here on 西游记 and Pride and Prejudice with other fragments, and on every shared
book for findings in untouched text.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from lengthwise.builders.audit import audit_sample
from lengthwise.builders.audit.detectors.repeated_fragments import fragment_counts
from lengthwise.builders.audit.piece_cache import PieceStore
from lengthwise.builders.audit.reuse import audit_rows
from lengthwise.builders.audit.stage import PIECES_FILE
from lengthwise.builders.cleaning.fragments import weight
from lengthwise.spec import AuditConfig
from tests.builders.audit.test_audit_reuse import book, every_run
from tests.builders.audit.test_detectors import row
from tests.fixtures.planting import plant_after

BOOKS = {
    "zh": ("zh_simplified_four_classics/xiyouji_utf8.txt", 300_000, "。"),
    "en": ("en_pg_stripped/pride_and_prejudice.txt", 200_000, r"\. (?=[A-Z])"),
}
GLUED = {
    "zh": "书虫之家温馨提示您：夜深了请早点休息。",
    "en": " (Enjoy more public domain novels at the Lamplight Library.)",
}


def book_text(shared: Path, tmp_path: Path, language: str, length: int = 30_000) -> str:
    name, start, _ = BOOKS[language]
    copy = tmp_path / Path(name).name
    shutil.copyfile(shared / name, copy)
    return copy.read_text(encoding="utf-8").replace("\r\n", "\n")[start : start + length]


@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_fragment_glued_in_every_few_pages_is_found_once(
    shared_corpora: Path, tmp_path: Path, language: str
) -> None:
    text, planted = plant_after(
        book_text(shared_corpora, tmp_path, language), BOOKS[language][2], GLUED[language], 3000
    )
    assert planted >= 8
    audit = audit_sample(row(text, language, []), AuditConfig())
    assert audit.counts["repeated_fragment"] == 1, audit.snippets
    [shown] = audit.snippets["repeated_fragment"]
    assert GLUED[language].strip() in shown
    # Once or twice in the sample: under `repeated_fragment_min`.
    few, _ = plant_after(
        book_text(shared_corpora, tmp_path, language), BOOKS[language][2], GLUED[language], 12_000
    )
    assert audit_sample(row(few, language, []), AuditConfig()).counts["repeated_fragment"] == 0


def test_not_short_nor_ending_its_line_nor_in_english_speech() -> None:
    """Under 20 (an ideograph counts 2) a sentence is a common one; at a line's end it
    may be a chapter's formula; inside quotation marks in English, a character's words."""
    short = "众人都笑了。"
    formula = "未知胜负如何，且看下文分解。"
    lines = [f"第{n}日，玄德与关张商议。{short}那日天晴。\n第{n}夜。{formula}" for n in range(9)]
    assert audit_sample(row("\n".join(lines), "zh", []), AuditConfig()).total == 0
    assert weight("asked Holmes.") == 11 and weight("众人都笑了") == 10
    # A long sentence inside a line is found, in speech too (a Chinese site glues its
    # advert anywhere).
    glued = "\n".join(
        f"第{n}日，玄德道：“我们走罢。书虫之家提示您夜深了请早点休息。明日再来。”" for n in range(9)
    )
    assert audit_sample(row(glued, "zh", []), AuditConfig()).counts["repeated_fragment"] == 1
    speech = '"Come," said he. "I have walked all the way from the station today." He sat.'
    assert fragment_counts("\n".join([speech] * 9), 5) == {}
    speech = '"Come," said he. "Well. I have walked all the way from the station today." Then.'
    assert fragment_counts("\n".join([speech] * 9), 5) == {}
    curly = "\u201cWell. I have walked all the way from the station today.\u201d Then he sat."
    assert fragment_counts("\n".join([curly] * 9), 5) == {}
    narration = "Then he sat. I have walked all the way from the station today. He sat."
    assert fragment_counts("\n".join([narration] * 9), 5) == {
        "I have walked all the way from the station today.": 9
    }


def test_a_long_sample_needs_one_per_twenty_thousand_characters() -> None:
    """A long book repeats its commonest sentences a few times; furniture every few pages."""
    filler = "行者与八戒沙僧牵马挑担，" * 200  # 2,400 characters without a sentence end
    sentence = "书虫之家温馨提示您夜深了请早点休息。"
    text = "\n".join(f"{filler}{sentence}{filler}。" for _ in range(6))  # ~29,000 chars
    assert audit_sample(row(text, "zh", []), AuditConfig()).counts["repeated_fragment"] == 1
    longer = text + "\n" + "\n".join(f"{filler}{filler}。" for _ in range(30))
    assert len(longer) // 20_000 > 6
    assert audit_sample(row(longer, "zh", []), AuditConfig()).counts["repeated_fragment"] == 0


def test_from_chapter_pieces_as_from_the_text(tmp_path: Path) -> None:
    """The build audits samples from cached per-chapter counts: the same record."""
    story = "却说玄德闻言，便与关张二人商议此事。"
    glued = "书虫之家温馨提示您：夜深了请早点休息。"
    chapters = [
        (f"第{n}回", "\n".join(f"{story}{glued}{story}" for _ in range(n + 1))) for n in range(1, 4)
    ]
    b = book("zh", chapters)
    config = AuditConfig(repeated_fragment_min=3)
    rows = every_run(b)
    expected = [audit_sample(r, config).to_dict() for r in rows]
    assert any(e["counts"]["repeated_fragment"] for e in expected)
    assert not all(e["counts"]["repeated_fragment"] for e in expected)  # chapter 1: twice
    store = PieceStore(tmp_path / PIECES_FILE)
    got = [a.to_dict() for a in audit_rows(rows, {b.id: b}, config, store)]
    store.close()
    assert got == expected


def test_a_closing_formula_is_not_counted_as_the_tail_of_itself() -> None:
    """Chapters ending on `…且看下回分解` (the stop lost) must not make the formula ending
    every other chapter a fragment: `…分解` inside `…分解。` is no sentence of its own
    (found on 鏡花緣 samples by an all-shared build)."""
    formula = "未知後事如何，且看下回分解"
    chapters = [f"第{n}回。話說眾人散了。{formula}。\n\n第{n + 1}回" for n in range(9)]
    # Five chapters whose last stop was lost: the bare formula is seen five times.
    text = "\n".join(chapters + [f"第{n}回。又散了。{formula}\n" for n in range(10, 15)])
    assert fragment_counts(text, 5) == {}
    assert audit_sample(row(text, "zh", []), AuditConfig()).counts["repeated_fragment"] == 0
