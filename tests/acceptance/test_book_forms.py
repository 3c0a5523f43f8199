"""Issue 36, book forms on the held-out books of ../shared/corpora/FORMS.md: plays, story
collections, titled sections and letters build with their own units, and nothing of the
text is lost outside them.

These books were not read while the forms were written (written against A Doll's House,
Hamlet pg1524, Les Précieuses ridicules, 初刻/二刻拍案驚奇, 西湖佳話, 世說新語, 豆棚閒話);
Lady Susan's signature initial (`C. VERNON.` read as chapter 100) was found here and fixed
after (closing_units.drop_initials). Counts are FORMS.md's, checked there by grep.

Coverage: windows of 24 letters (punctuation and spaces dropped) every 300 letters of the
raw text between the Gutenberg START and END markers, found in the chapters (with their
parts' headings). What misses is the title page and a Gutenberg credit line.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lengthwise.builders.corpus import BookReport, process_document
from lengthwise.builders.sources.local import read_local_file
from lengthwise.records import Book, SourceDocument
from tests.fixtures.reprinting import SETTINGS

pytestmark = pytest.mark.slow

_WINDOW, _STEP = 24, 300
ROMAN = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"]


def _build(shared_corpora: Path, folder: str, name: str) -> tuple[SourceDocument, Book, BookReport]:
    path = shared_corpora / folder / name
    if not path.is_file():
        pytest.skip(f"{path} not found (the held-out book forms of FORMS.md)")
    doc = read_local_file(path)
    assert isinstance(doc, SourceDocument)
    book, report = process_document(doc, SETTINGS)
    assert book is not None, report.excluded
    return doc, book, report


def _coverage(doc: SourceDocument, book: Book) -> float:
    """Share of the raw text's windows found in the chapters (see the module docstring)."""
    raw = doc.text.replace("\r\n", "\n")
    start = re.search(r"\*\*\* ?START OF.*\n", raw)
    end = re.search(r"\n *\*\*\* ?END OF", raw)
    body = _letters(raw[start.end() if start else 0 : end.start() if end else len(raw)])
    joined: list[str] = []
    part = None
    for chapter in book.chapters:
        if chapter.part and chapter.part != part:
            joined.append(chapter.part)
            part = chapter.part
        joined.append(chapter.heading + chapter.text)
    chapters = _letters("".join(joined))
    windows = [body[i : i + _WINDOW] for i in range(0, len(body) - _WINDOW, _STEP)]
    return sum(window in chapters for window in windows) / len(windows)


def _letters(text: str) -> str:
    return re.sub(r"[\W_]+", "", text)


def test_earnest_three_acts_with_speakers_and_directions(shared_corpora: Path) -> None:
    doc, book, report = _build(shared_corpora, "en_drama", "pg844_importance_of_being_earnest.txt")
    assert [c.heading for c in book.chapters] == ["FIRST ACT", "SECOND ACT", "THIRD ACT"]
    assert report.learned_boilerplate == []  # no speaker label or direction taken
    raw_labels = len(re.findall(r"(?m)^ALGERNON\.$", doc.text))
    kept = sum(len(re.findall(r"(?m)^ALGERNON\.$", c.text)) for c in book.chapters)
    assert raw_labels > 100 and kept == raw_labels
    assert _coverage(doc, book) >= 0.99


def test_amphitryon_prologue_and_21_scenes_in_three_acts(shared_corpora: Path) -> None:
    doc, book, _ = _build(shared_corpora, "en_drama", "pg2536_moliere_amphitryon.txt")
    scenes = [f"SCENE {ROMAN[i]}" for n in (4, 7, 10) for i in range(n)]
    assert [c.heading for c in book.chapters] == ["PROLOGUE", *scenes]
    assert [c.part for c in book.chapters[1:]] == ["ACT I"] * 4 + ["ACT II"] * 7 + ["ACT III"] * 10
    assert _coverage(doc, book) >= 0.98  # less the PG credit line (cleaning's) and title


def test_jingu_qiguan_80_stories_a_collection(shared_corpora: Path) -> None:
    doc, book, report = _build(shared_corpora, "zh_story_collection", "jingu_qiguan_trad.txt")
    assert [c.number for c in book.chapters] == list(range(1, 81))
    titled = [c for c in book.chapters if c.title and c.heading.endswith(c.title)]
    # 79: cleaning's paragraph rejoining glues 第六十卷's title line to the story's first
    # line (a known limit, see docs/chapters.md), so that 卷 reads untitled.
    assert len(titled) >= 79 and len({c.title for c in titled}) == len(titled)
    assert report.story_collection
    assert _coverage(doc, book) >= 0.99


def test_zibuyu_24_volumes(shared_corpora: Path) -> None:
    doc, book, _ = _build(shared_corpora, "zh_titled_sections", "zibuyu_trad.txt")
    assert [c.number for c in book.chapters] == list(range(1, 25))
    assert _coverage(doc, book) >= 0.99


def test_lady_susan_41_letters_and_conclusion(shared_corpora: Path) -> None:
    doc, book, report = _build(shared_corpora, "en_epistolary", "946-0_lady_susan.txt")
    assert [c.number for c in book.chapters] == [*range(1, 42), None]
    assert book.chapters[-1].heading == "CONCLUSION"
    assert report.gaps == []
    assert _coverage(doc, book) >= 0.99
