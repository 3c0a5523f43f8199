"""Unnumbered story sections printed with other words than PROLOGUE and EPILOGUE.

A held-out probe (invented headings over Pride and Prejudice) found an opening PRELUDE or
OVERTURE dropped with the front matter (847 words of story), and an INTERLUDE, CODA,
POSTSCRIPT or ENVOI merged, heading line and all, into the chapter before it. Checked
here on Alice in Wonderland, which the probe did not use.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fixtures.reprinting import processed, read_shared, with_text


@pytest.mark.parametrize(
    ("opening", "middle", "closing"),
    [("PRELUDE", "INTERLUDE", "CODA"), ("Overture", "Interlude", "Envoi"),
     ("PROLOGUE", "INTERLUDE", "POSTSCRIPT")],
)  # fmt: skip
def test_every_story_section_is_a_chapter_of_its_own(
    shared_corpora: Path, opening: str, middle: str, closing: str
) -> None:
    doc = read_shared(shared_corpora, "en_pg_stripped", "alice_in_wonderland.txt")
    bodies = [c.text for c in processed(doc).chapters]
    headings = [opening, "CHAPTER I", "CHAPTER II", "CHAPTER III", "CHAPTER IV", middle]
    headings += ["CHAPTER V", "CHAPTER VI", "CHAPTER VII", "CHAPTER VIII", "CHAPTER IX"]
    headings += [closing]
    printed = "ALICE'S ADVENTURES IN WONDERLAND\n\n\n" + "".join(
        f"{heading}\n\n{body.strip()}\n\n\n" for heading, body in zip(headings, bodies, strict=True)
    )
    book = processed(with_text(doc, printed))
    assert [c.heading for c in book.chapters] == headings
    assert [c.text.strip() for c in book.chapters] == [b.strip() for b in bodies]
