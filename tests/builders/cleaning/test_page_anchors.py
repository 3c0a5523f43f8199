"""Printed page numbers kept as anchors inside English sentences (`[Pg 23]`, `{23}`).

A held-out probe (English e-texts from HTML editions) found them left in mid-sentence.
The rule was written against Tom Sawyer; Moby Dick and Pride and Prejudice (here) and War
and Peace (by a probe) were checked after, with each form below: chapters identical to the
book without them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lengthwise.builders.cleaning.page_anchors import NAME, remove_page_anchors
from lengthwise.builders.corpus import process_document
from lengthwise.records import SourceDocument
from tests.fixtures.reprinting import SETTINGS, processed, read_shared, with_text


def _anchored(doc: SourceDocument, form: str, every: int = 2000) -> tuple[SourceDocument, int]:
    """`doc` with `form.format(page)` after a word every `every` characters, pages rising."""
    text, pieces, last, page = doc.text, [], 0, 0
    position = text.find(" ", every)
    while position >= 0:
        page += 1
        pieces += [text[last:position], " " + form.format(page)]
        last = position
        position = text.find(" ", position + every)
    return with_text(doc, "".join([*pieces, text[last:]])), page


@pytest.mark.parametrize("form", ["[Pg {}]", "{{{}}}", "[p. {}]", "[Page {}]"])
@pytest.mark.parametrize("name", ["tom_sawyer.txt", "moby_dick.txt", "pride_and_prejudice.txt"])
def test_page_anchors_are_removed_and_counted(shared_corpora: Path, name: str, form: str) -> None:
    doc = read_shared(shared_corpora, "en_pg_stripped", name)
    expected = processed(doc)
    anchored, anchors = _anchored(doc, form)
    book, report = process_document(anchored, SETTINGS)
    assert book is not None
    assert [(c.number, c.text) for c in book.chapters] == [
        (c.number, c.text) for c in expected.chapters
    ]
    assert report.removed[NAME] == anchors
    [learned] = [line for line in report.learned_boilerplate if line.rule == NAME]
    assert learned.count == anchors


def test_a_glued_anchor_leaves_the_words_as_they_were() -> None:
    pages = " ".join(f"word{n}[Pg {n}] next" for n in range(1, 40))
    outcome = remove_page_anchors(pages)
    assert outcome.text == " ".join(f"word{n} next" for n in range(1, 40))
    assert outcome.count == 39


def test_footnote_references_stay() -> None:
    """`[12]` is how footnote references are printed: rising numbers, but never anchors."""
    text = " ".join(f"a sentence with a note.[{n}] And more" for n in range(1, 60))
    assert remove_page_anchors(text).count == 0


def test_few_or_unordered_anchors_stay() -> None:
    few = " ".join(f"text [Pg {n}] text" for n in range(1, 10))
    unordered = " ".join(f"see {{{n * 37 % 101}}} there" for n in range(1, 60))
    assert remove_page_anchors(few).count == 0
    assert remove_page_anchors(unordered).count == 0
