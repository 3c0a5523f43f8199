"""Books in Japanese, German, French and Spanish from ../shared (issue 36): their language,
title and unit counts as `../shared/corpora/FORMS.md` gives them (counted there by the
printed headings). These books were held out: the language support was written against
other Aozora and Gutenberg books (三四郎, 浮雲, 夜明け前, 恐怖城; Les Misérables V, Le
Dernier Jour d'un Condamné, Die Verwandlung) and run on these at the end.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lengthwise.builders.corpus import CorpusSettings, process_document
from lengthwise.builders.sources.local import read_local_file
from lengthwise.records import Book, SourceDocument
from lengthwise.spec import ChaptersConfig, CleaningConfig

pytestmark = pytest.mark.slow

SETTINGS = CorpusSettings("auto", CleaningConfig(), ChaptersConfig())


def build(corpora: Path, folder: str, name: str) -> Book:
    document = read_local_file(corpora / folder / name)
    assert isinstance(document, SourceDocument)
    book, report = process_document(document, SETTINGS)
    assert book is not None, report.excluded
    return book


@pytest.mark.parametrize(
    ("name", "title", "chapters"),
    [
        # 11 `［＃「一」は中見出し］` notes; the heading lines keep their numerals.
        ("752_ruby_2438_bocchan_sjis.txt", "坊っちゃん", 11),
        # 23 `　　　第壱章` … `第弐拾参章` (old-style numerals) over `（一）` sections.
        ("1502_ruby_24534_hakai_sjis.txt", "破戒", 23),
    ],
)
def test_aozora_books_are_japanese_with_their_chapters(
    shared_corpora: Path, name: str, title: str, chapters: int
) -> None:
    book = build(shared_corpora, "ja_aozora", name)
    assert (book.language, book.title) == ("ja", title)
    assert [c.number for c in book.chapters] == list(range(1, chapters + 1))
    text = "".join(c.text for c in book.chapters)
    marks = ("《", "［＃", "｜", "底本：", "テキスト中に現れる記号")
    assert not any(mark in text for mark in marks)


def runs_from_one(numbers: list[int]) -> list[int]:
    """Lengths of the runs 1, 2, …, k the numbers make; AssertionError when they do not."""
    runs: list[int] = []
    for number in numbers:
        if number == 1:
            runs.append(1)
        else:
            assert runs and number == runs[-1] + 1, numbers
            runs[-1] += 1
    return runs


@pytest.mark.parametrize(
    ("name", "language", "chapters", "runs", "parts", "specials"),
    [
        # `^\S+ Teil$` = 11, `^\S+ Kapitel$` = 97, restarting in each Teil.
        ("de_34811-0_buddenbrooks.txt", "de", 97, None, 11, []),
        # `PREMIÈRE PARTIE` … over bare roman chapters (9 + 15 + 11), after a contents list.
        ("fr_pg14155_madame_bovary.txt", "fr", 35, [9, 15, 11], 3, []),
        # `^Capítulo [^ ]+\.` = 126: 52 + 74, restarting in the second part (no part
        # heading of the generic path's words: `Segunda parte del ingenioso caballero…`);
        # each part opens with its author's prologue.
        ("es_pg2000_don_quijote.txt", "es", 126, [52, 74], None, ["PRÓLOGO", "PRÓLOGO AL LECTOR"]),
    ],
)
def test_gutenberg_books_in_other_languages_by_the_generic_path(
    shared_corpora: Path,
    name: str,
    language: str,
    chapters: int,
    runs: list[int] | None,
    parts: int | None,
    specials: list[str],
) -> None:
    book = build(shared_corpora, "de_fr_es_gutenberg", name)
    assert book.language == language
    numbers = [c.number for c in book.chapters if c.number is not None]
    assert len(numbers) == chapters
    found_runs = runs_from_one(numbers)
    assert found_runs == runs if runs is not None else len(found_runs) == parts
    if parts is not None:
        assert len({c.part for c in book.chapters}) == parts
    assert [c.heading for c in book.chapters if c.number is None] == specials
