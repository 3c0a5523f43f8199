"""Furniture of editions that are not Gutenberg's, on copies of real books: address lines
(Wikisource's `Retrieved from "…"`), an editor's `[End of …]` line with the notes after
it, transcriber's notes outside a Gutenberg file. The rules were written against a
Tom Sawyer and a Sherlock Holmes copy; these tests plant into Alice in Wonderland, Pride
and Prejudice and Little Women (raw, hard-wrapped), which were not looked at for them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lengthwise.builders.cleaning import clean_text
from lengthwise.spec import CleaningConfig


def _read(shared_corpora: Path, relative: str) -> str:
    return (shared_corpora / relative).read_text(encoding="utf-8").replace("\r\n", "\n")


def _after_paragraphs(text: str, every: int, make: str) -> tuple[str, int]:
    """`make.format(n)` as a paragraph of its own after every `every`-th paragraph."""
    paragraphs = text.split("\n\n")
    planted = 0
    for k in range(every, len(paragraphs), every):
        planted += 1
        paragraphs[k] += "\n\n" + make.format(planted, 1000 + 37 * planted)
    return "\n\n".join(paragraphs), planted


@pytest.mark.slow
@pytest.mark.parametrize(
    "shape",
    [
        'Retrieved from "https://en.wikisource.org/w/index.php?title=Alice/Chapter_{0}&oldid={1}"',
        "Source: http://www.example-library.org/alice/{1}.html",
        "www.freeclassics.example.net/{0}",
    ],
)
def test_address_lines_go_and_the_story_stays(shared_corpora: Path, shape: str) -> None:
    raw = _read(shared_corpora, "en_pg_stripped/alice_in_wonderland.txt")
    planted, count = _after_paragraphs(raw, 25, shape)
    plain = clean_text(raw, "en", CleaningConfig())
    cleaned = clean_text(planted, "en", CleaningConfig())
    assert count >= 20
    assert cleaned.text == plain.text
    assert cleaned.removed["common/address-line"] == count


def test_an_address_inside_a_wrapped_sentence_stays() -> None:
    text = (
        "It was the first story I read, and I sent it to\n"
        "https://www.example.org/stories/first-story-ever for\n"
        "a friend who had asked.\n\nThe card said only: www.example.org, and nothing else.\n"
    )
    cleaned = clean_text(text, "en", CleaningConfig())
    assert "first-story-ever for" in cleaned.text and "said only: www.example.org" in cleaned.text
    assert "common/address-line" not in cleaned.removed


@pytest.mark.slow
def test_an_editors_end_line_and_the_notes_after_it_go(shared_corpora: Path) -> None:
    # (Alice ends with THE END, which cuts what follows anyway: Pride and Prejudice does not.)
    raw = _read(shared_corpora, "en_pg_stripped/pride_and_prejudice.txt").rstrip("\n")
    back = (
        "\n\n\n[End of Pride and Prejudice by Jane Austen]\n\n"
        "Transcriber's Notes:\nObvious typographical errors have been silently corrected.\n"
        "Spelling and punctuation remain unchanged.\n"
    )
    plain = clean_text(raw + "\n", "en", CleaningConfig())
    cleaned = clean_text(raw + back, "en", CleaningConfig())
    assert cleaned.text == plain.text
    assert cleaned.removed["en/back-matter"] == 1


@pytest.mark.slow
def test_transcribers_notes_go_from_any_edition(shared_corpora: Path) -> None:
    """Little Women without its Gutenberg header and footer (the gutenberg rule set is
    then not chosen): a transcriber's note planted between chapters still goes."""
    raw = _read(shared_corpora, "en_pg_raw/pg514.txt")
    start = raw.index("*** START OF")
    body = raw[raw.index("\n", start) + 1 : raw.index("*** END OF")]
    # The heading itself, not its line in the table of contents.
    *_, chapter_two = re.finditer(r"(?m)^ *CHAPTER TWO", body)
    note = (
        "[Transcriber's Note: the original spelling of this chapter has been kept, "
        "including 'to-day' and 'cozy'.]\n\n"
    )
    planted = body[: chapter_two.start()] + note + body[chapter_two.start() :]
    plain = clean_text(body, "en", CleaningConfig())
    cleaned = clean_text(planted, "en", CleaningConfig())
    assert "gutenberg" not in cleaned.rulesets
    assert cleaned.text == plain.text
    assert cleaned.removed["en/transcriber-note"] == plain.removed.get("en/transcriber-note", 0) + 1
