"""HTML tags left in a plain-text book by a conversion (`common/html-tag`).

Written against tags planted in Sherlock Holmes and Tom Sawyer; checked here on Pride
and Prejudice and 红楼梦 (not used while writing): the chapters come out as without
the tags, character for character.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lengthwise.builders.cleaning.cleaner import clean_text
from lengthwise.builders.corpus import process_document
from lengthwise.spec import CleaningConfig
from tests.fixtures.planting import chapter_tuples, plant_after
from tests.fixtures.reprinting import SETTINGS, processed, read_shared, with_text


@pytest.mark.parametrize(
    ("folder", "name", "boundary", "tag"),
    [
        # `<br>` ending lines, `<p>` opening paragraphs.
        ("en_pg_stripped", "pride_and_prejudice.txt", r"[.!?\"”](?=\n)", "<br>"),
        ("en_pg_stripped", "pride_and_prejudice.txt", r"\n\n(?=[A-Z])", '<p class="x{}">'),
        ("zh_simplified_four_classics", "hongloumeng_utf8.txt", r"[^\n](?=\n)", "<br />"),
        ("zh_simplified_four_classics", "hongloumeng_utf8.txt", r"\n(?=[^\n])", "<p>"),
    ],
)
def test_planted_tags_go_and_chapters_stay(
    shared_corpora: Path, folder: str, name: str, boundary: str, tag: str
) -> None:
    doc = read_shared(shared_corpora, folder, name)
    expected = processed(doc)
    text, count = plant_after(doc.text, boundary, tag, 3000)
    book, report = process_document(with_text(doc, text), SETTINGS)
    assert book is not None
    assert chapter_tuples(book) == chapter_tuples(expected)
    assert report.removed["common/html-tag"] == count > 50


def test_inline_tags_go_without_a_trace(shared_corpora: Path) -> None:
    doc = read_shared(shared_corpora, "en_pg_stripped", "pride_and_prejudice.txt")
    expected = processed(doc)
    text = re.sub(r"\b(indeed|replied)\b", r"<i>\1</i>", doc.text)
    book, report = process_document(with_text(doc, text), SETTINGS)
    assert book is not None
    assert chapter_tuples(book) == chapter_tuples(expected)
    assert report.removed["common/html-tag"] >= 100


def test_a_br_inside_a_line_breaks_it() -> None:
    text = "One line<br>and the next.<br/>\nA third<BR />and a fourth.\n<p>New paragraph</p>\n"
    result = clean_text(text, "en", CleaningConfig())
    assert result.text == "One line\nand the next.\nA third\nand a fourth.\nNew paragraph\n"


def test_few_tags_names_not_html_and_escaped_tags_stay() -> None:
    text = (
        "He wrote a<b>c on the board, and <grin> at the end.\n\n"
        "The <Name> field, &lt;i&gt; and &lt;br&gt; are what the manual says.\n"
    )
    result = clean_text(text, "en", CleaningConfig())
    assert "common/html-tag" not in result.removed
    assert "a<b>c" in result.text and "<grin>" in result.text and "<i>" in result.text
