"""Invisible characters some web copies sprinkle through the text (zero-width space and
joiners, word joiner, BOM, soft hyphen): removed and counted by cleaning, and never part
of the book's title, which is read before cleaning (a title line, a file name).

Tried on 水浒传 and Pride and Prejudice while writing; tested on 西游记 and Sherlock Holmes."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from lengthwise.builders.corpus import process_document
from lengthwise.records import SourceDocument, display_title
from tests.fixtures.reprinting import SETTINGS, read_shared, with_text

INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad"]


def _sprinkled(text: str, every: int, seed: int) -> tuple[str, int]:
    """An invisible character before every `every`-th letter (titles included)."""
    rng = random.Random(seed)
    pieces, planted = [], 0
    for index, char in enumerate(text):
        if index % every == 0 and char.isalpha():
            pieces.append(rng.choice(INVISIBLE))
            planted += 1
        pieces.append(char)
    return "".join(pieces), planted


@pytest.mark.parametrize(
    ("folder", "name"),
    [("zh_simplified_four_classics", "xiyouji_utf8.txt"), ("en_pg_stripped", "sherlock.txt")],
)
def test_invisible_characters_are_removed_and_counted(
    shared_corpora: Path, folder: str, name: str
) -> None:
    doc = read_shared(shared_corpora, folder, name)
    original, _ = process_document(doc, SETTINGS)
    text, planted = _sprinkled(doc.text, 29, seed=len(name))
    assert original is not None and planted > 1000
    sprinkled = with_text(doc, text)
    sprinkled = SourceDocument(**{**vars(sprinkled), "title": _sprinkled(doc.title, 2, 1)[0]})
    book, report = process_document(sprinkled, SETTINGS)
    assert book is not None, report.excluded
    assert report.title == original.title and book.title == original.title
    assert report.removed["common/zero-width"] == planted
    assert [c.text for c in book.chapters] == [c.text for c in original.chapters]


def test_display_title() -> None:
    assert display_title("Pride\u00ad and\u00a0 Prej\u200budice\n") == "Pride and Prejudice"
    assert display_title("水浒\u2060传\u3000施耐庵") == "水浒传 施耐庵"
