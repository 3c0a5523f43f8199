"""Page numbers glued inside Chinese paragraphs: learned per book from a rising series,
removed and counted; the story on both sides unchanged character for character."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from lengthwise.builders.cleaning.inline_page_markers import (
    MIN_MARKS,
    remove_inline_page_markers,
)
from lengthwise.builders.corpus import CorpusSettings, process_document
from lengthwise.builders.sources.local import read_local_file
from lengthwise.records import Book, SourceDocument
from lengthwise.spec import ChaptersConfig, CleaningConfig
from tests.fixtures.planting import plant_after

RULE = "zh/inline-page-markers"
SHAPES = ["[{}]", "（第{}页）", "- {} -", "<{}>", "{}", "〔{}〕"]
SENTENCE = "话说天下大势，分久必合，合久必分。"


@pytest.mark.parametrize("shape", SHAPES)
def test_a_rising_series_of_marks_is_removed_exactly(shape: str) -> None:
    story = SENTENCE * 400
    planted, count = plant_after(story, "[，。]", shape, 200)
    outcome = remove_inline_page_markers(planted)
    assert outcome.count == count and outcome.text == story
    assert outcome.learned[0].rule == RULE


@pytest.mark.parametrize(
    "text",
    [
        # Numbers in prose: years and counts, not a rising page series.
        "".join(f"他在{1900 + (i * 37) % 97}年买了{i % 7 + 2}匹马。" for i in range(60)),
        # A rising series, but too short to be a book's pages.
        "".join(f"{SENTENCE}[{i}]" for i in range(1, MIN_MARKS - 2)),
        # Page numbers on lines of their own: the line-based learned rule's business.
        "".join(f"{SENTENCE}\n{i}\n" for i in range(1, 60)),
        "".join(f"{SENTENCE}\n第{i}页\n" for i in range(1, 60)),
        "".join(f"{SENTENCE}\n- {i} -\n" for i in range(1, 60)),
        # English text is left to the English rules.
        "".join(f"It was page [{i}] of the story. " for i in range(1, 60)),
    ],
)
def test_no_series_no_removal(text: str) -> None:
    assert remove_inline_page_markers(text).count == 0


def _book(path: Path) -> Book:
    document = read_local_file(path)
    assert isinstance(document, SourceDocument)
    book, report = process_document(
        document, CorpusSettings("zh", CleaningConfig(), ChaptersConfig())
    )
    assert book is not None, report.excluded
    return book


@pytest.mark.slow
@pytest.mark.parametrize(
    ("folder", "name", "seed"),
    [
        ("zh_simplified_four_classics", "sanguo_utf8.txt", 1),
        ("zh_simplified_four_classics", "xiyouji_utf8.txt", 2),
        ("zh_pg_flattened", "fengshen_flat.txt", 3),
    ],
)
def test_marks_planted_in_real_books(
    shared_corpora: Path, tmp_path: Path, folder: str, name: str, seed: int
) -> None:
    shape = random.Random(seed).choice(SHAPES)
    raw = (shared_corpora / folder / name).read_text(encoding="utf-8").replace("\r\n", "\n")
    planted, count = plant_after(raw, "[，。]", shape, 2000)
    (tmp_path / "clean.txt").write_text(raw, encoding="utf-8")
    (tmp_path / "planted.txt").write_text(planted, encoding="utf-8")
    document = read_local_file(tmp_path / "planted.txt")
    assert isinstance(document, SourceDocument)
    _, report = process_document(document, CorpusSettings("zh", CleaningConfig(), ChaptersConfig()))
    assert report.removed[RULE] == count, shape
    assert [line.count for line in report.learned_boilerplate if line.rule == RULE] == [count]
    clean, book = _book(tmp_path / "clean.txt"), _book(tmp_path / "planted.txt")
    assert [c.text for c in book.chapters] == [c.text for c in clean.chapters]
