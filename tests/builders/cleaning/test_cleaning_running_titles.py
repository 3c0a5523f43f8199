"""Running titles glued to chapter ends (files without line breaks) are learned and removed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lengthwise.builders.corpus import CorpusSettings, process_document
from lengthwise.builders.sources.local import read_local
from lengthwise.records import Book, SourceDocument
from lengthwise.spec import ChaptersConfig, CleaningConfig


def _process(path: Path, cleaning: CleaningConfig | None = None) -> tuple[Book, dict[str, int]]:
    (doc,) = [d for d in read_local(path) if isinstance(d, SourceDocument)]
    settings = CorpusSettings("auto", cleaning or CleaningConfig(), ChaptersConfig())
    book, report = process_document(doc, settings)
    assert book is not None, report.excluded
    return book, report.removed


@pytest.mark.slow
def test_the_running_title_of_a_flattened_novel_is_removed(shared_corpora: Path) -> None:
    # 官場現形記 as re-saved without line breaks prints its title after every chapter.
    path = shared_corpora / "zh_pg_flattened" / "guanchang_flat.txt"
    book, removed = _process(path)
    assert book.title == "官場現形記"
    assert len(book.chapters) == 60
    # Every chapter ends with it (once glued to 且聽下回分解 with no sentence end); the last
    # chapter's own sentence "是為《官場現形記》。" before it stays.
    assert removed["learned/running-title"] == 60
    assert not any(c.text.rstrip().endswith("官場現形記") for c in book.chapters)
    assert book.chapters[-1].text.rstrip().endswith("是為《官場現形記》。")
    kept, _ = _process(path, CleaningConfig(disable_rules=["learned/running-title"]))
    ends = sum(c.text.rstrip().endswith("官場現形記") for c in kept.chapters)
    assert ends == 60
    # Only the running title went: every chapter otherwise reads as before.
    for with_title, without in zip(kept.chapters, book.chapters, strict=True):
        assert with_title.text.rstrip().removesuffix("官場現形記").rstrip() == without.text.rstrip()


def _flat_copy(shared_corpora: Path, tmp_path: Path, tail: str) -> Path:
    """三国演义 re-saved as one line, with `tail` glued after every chapter's last sentence."""
    text = (shared_corpora / "zh_simplified_four_classics" / "sanguo_utf8.txt").read_text(
        encoding="utf-8"
    )
    text = re.sub(r"(?=\s*第[一二三四五六七八九十百零〇]+回)", tail, text)
    first_line, rest = text.split("\n", 1)
    flat = tmp_path / "sanguo_flat.txt"
    flat.write_text(first_line.strip() + "\n" + "".join(rest.split()), encoding="utf-8")
    return flat


@pytest.mark.slow
def test_a_planted_title_is_removed_but_formulae_and_other_fragments_stay(
    shared_corpora: Path, tmp_path: Path
) -> None:
    book, removed = _process(_flat_copy(shared_corpora, tmp_path, "三国演义"))
    assert book.title == "三国演义"
    assert removed.get("learned/running-title", 0) >= 100
    assert not any(c.text.endswith("三国演义") for c in book.chapters)
    # A recurring closing formula that does not name the book is narrative: kept.
    book, removed = _process(_flat_copy(shared_corpora, tmp_path, "且听下回分解"))
    assert "learned/running-title" not in removed
    assert sum(c.text.endswith("且听下回分解") for c in book.chapters) >= 100
