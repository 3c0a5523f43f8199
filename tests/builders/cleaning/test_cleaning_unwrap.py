"""Paragraph unwrapping: the wrap width comes from the book, structure is never joined."""

from __future__ import annotations

import random
import re
import textwrap
from pathlib import Path

import pytest

from lengthwise.builders.cleaning.unwrap import unwrap_paragraphs, wrap_width
from tests.fixtures.reprinting import processed, read_shared, with_text

WORDS = [
    "the",
    "old",
    "house",
    "stood",
    "at",
    "the",
    "end",
    "of",
    "a",
    "long",
    "road",
    "where",
    "nobody",
    "had",
    "walked",
    "for",
    "many",
    "years",
    "and",
    "the",
    "garden",
    "behind",
    "it",
    "was",
    "full",
    "of",
    "weeds",
    "that",
    "reached",
    "the",
    "windows",
    "while",
    "somewhere",
    "a",
    "dog",
    "barked",
    "at",
    "the",
    "passing",
    "carts",
    "of",
    "the",
    "morning",
    "market",
]


def prose(seed: int, sentences: int = 5) -> str:
    rng = random.Random(seed)
    return " ".join(
        " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 16))).capitalize() + "."
        for _ in range(sentences)
    )


def wrapped_book(paragraphs: int = 40, width: int = 70) -> tuple[str, list[str]]:
    texts = [prose(i) for i in range(paragraphs)]
    return "\n\n".join(textwrap.fill(p, width=width) for p in texts) + "\n", texts


def test_width_is_read_from_the_book_itself() -> None:
    for width in (60, 72):
        book, _ = wrapped_book(width=width)
        found = wrap_width(book.split("\n"))
        assert found is not None and width - 6 <= found <= width
    one_per_line = "\n\n".join(prose(i) for i in range(60))
    assert wrap_width(one_per_line.split("\n")) is None


def test_wrapped_paragraphs_become_one_line_each_and_each_join_counts() -> None:
    book, paragraphs = wrapped_book()
    outcome = unwrap_paragraphs(book)
    assert outcome.text == "\n\n".join(paragraphs) + "\n"
    assert outcome.count == book.count("\n") - 2 * (len(paragraphs) - 1) - 1


def test_headings_verse_lists_and_contents_are_never_joined() -> None:
    book, _ = wrapped_book()
    structure = (
        "CHAPTER IV. THE GARDEN AT THE END OF THE LONG ROAD WHERE NOBODY WALKED\n"
        "Then the old man sang to the dog at the end of the road once again:\n"
        "  Over the hill and far away, over the hill and down to the sea,\n"
        "  Over the hill and far away the morning carts come home to me.\n"
        "  Down the road and far away,\n"
        "  Home again the carts.\n\n"
        "The carts come home at night,\n"
        "the dog barks at the gate,\n"
        "and the house is still.\n\n"
        "“Yes,” said he.\n"
        "“No,” said she.\n\n"
        "What the old man kept in his house, and what the dog knew about it all:\n"
        "1. a lamp that nobody had lit since the winter of the great market\n"
        "2. a key that opened no door in the house or the garden behind it\n\n"
        "I. THE HOUSE AT THE END OF THE ROAD WHERE NOBODY WALKED          1\n"
        "II. THE GARDEN BEHIND IT, FULL OF WEEDS THAT REACHED THE WINDOWS  17\n"
    )
    outcome = unwrap_paragraphs(book + "\n" + structure)
    assert outcome.text.endswith(structure)


def test_cjk_lines_join_without_a_space() -> None:
    line = "话说平儿出来吩咐林之孝家的道大事化为小事小事化为没事方是兴旺之家若得"
    paragraph = (line * 3)[:90]
    book = "\n\n".join("\n".join(textwrap.wrap(paragraph, 30)) for _ in range(20)) + "\n"
    outcome = unwrap_paragraphs(book)
    assert outcome.text == "\n\n".join(paragraph for _ in range(20)) + "\n"
    assert outcome.count == 40


def test_the_books_own_spelling_decides_a_line_end_hyphen() -> None:
    book, _ = wrapped_book()
    lines = [
        "They walked along the road until the morning and spoke of to-\nmorrow all day.",
        "They walked along the road until the morning and spoke of some-\nthing else.",
        "They walked along the road until the morning and sat on the river-\nbank a while.",
        "They walked along the road until the morning, and it was a holi-\nday for them.",
        # Elsewhere in the book: its spellings, and the words `river` and `bank`.
        "Something was wrong with the road that morning, and nobody knew it.",
        "To-morrow the river would rise again, and the bank would be gone.",
    ]
    outcome = unwrap_paragraphs(book + "\n" + "\n\n".join(lines) + "\n")
    assert "spoke of to-morrow all day." in outcome.text  # printed so elsewhere
    assert "spoke of something else." in outcome.text  # printed so elsewhere
    assert "sat on the river-bank a while." in outcome.text  # two words of the book
    assert "it was a holiday for them." in outcome.text  # `holi` is no word


def test_dashes_follow_the_books_own_spacing() -> None:
    book, _ = wrapped_book()
    glued = "The dog ran along the road and stopped at the end of the garden—\nthen barked.\n"
    outcome = unwrap_paragraphs(book + "\n" + glued)
    assert "garden—then barked." in outcome.text


def test_a_heading_wrapped_over_lines_is_joined_into_one_line() -> None:
    book, _ = wrapped_book()
    headings = (
        "Chapter 61. How a Gardener May Get Rid of the Dormice that Eat His\n"
        "Peaches\n\n"
        "CHAPTER IV. THE GARDEN AT THE END OF THE LONG ROAD WHERE THE\n"
        "OLD MAN WALKED\n\n"
        "CHAPTER III. The Old House at the End of the Road and a Long\n"
        "Tale\n"
    )
    outcome = unwrap_paragraphs(book + "\n" + headings)
    assert outcome.text.endswith(
        "\nChapter 61. How a Gardener May Get Rid of the Dormice that Eat His Peaches\n\n"
        "CHAPTER IV. THE GARDEN AT THE END OF THE LONG ROAD WHERE THE OLD MAN WALKED\n\n"
        "CHAPTER III. The Old House at the End of the Road and a Long Tale\n"
    )


def test_a_heading_is_not_joined_to_a_paragraph_or_to_a_title_line_below_it() -> None:
    book, _ = wrapped_book()
    # A full heading line with a paragraph right below it (no blank line between):
    # longer than any title, so the paragraph keeps its own line.
    run_in = "CHAPTER IV. THE GARDEN AT THE END OF THE LONG ROAD WHERE NOBODY\n" + (
        textwrap.fill(prose(99), 70) + "\n"
    )
    # A short heading with its title on the next line is not wrapped; a full one with
    # the next entry's roman numeral below it is not either.
    titled = (
        "CHAPTER V.\nThe Dog at the Gate\n\n"
        "VI. THE END OF THE LONG ROAD AND THE GARDEN BEHIND THE OLD HOUSE\nXII.\n"
    )
    outcome = unwrap_paragraphs(book + "\n" + run_in + "\n" + titled)
    assert "WHERE NOBODY\n" + prose(99) + "\n" in outcome.text
    assert outcome.text.endswith(titled)


def _typeset(paragraph: str, width: int = 66) -> str:
    """`paragraph` wrapped at `width` as a typesetter would: a long word that does not
    fit is broken with a hyphen where the line ends (`holi-⏎day`)."""
    lines, line = [], ""
    for word in paragraph.split(" "):
        if not line or len(line) + 1 + len(word) <= width:
            line = f"{line} {word}".strip()
            continue
        room = width - len(line) - 2
        split = re.fullmatch(r"[A-Za-z]{7,}[.,;:!?]?", word) and min(room, len(word) - 3)
        if split and split >= 4 and word[:split].isalpha():
            lines.append(f"{line} {word[:split]}-")
            line = word[split:]
        else:
            lines.append(line)
            line = word
    return "\n".join([*lines, line])


@pytest.mark.slow
@pytest.mark.parametrize("name", ["tom_sawyer.txt", "alice_in_wonderland.txt"])
def test_words_a_typesetter_broke_are_whole_again(shared_corpora: Path, name: str) -> None:
    """Before, a broken word kept its hyphen unless the book printed it whole elsewhere:
    127 of Tom Sawyer's 474 breaks stayed `adventur-ous`, `circ-umstantial`. Written
    against Tom Sawyer; Alice checked after."""
    doc = read_shared(shared_corpora, "en_pg_stripped", name)
    paragraphs = [" ".join(p.split()) for p in re.split(r"\n\s*\n", doc.text) if p.strip()]
    typeset = "\n\n".join(_typeset(p) for p in paragraphs)
    breaks = typeset.count("-\n")
    words = "\n".join(c.text for c in processed(doc).chapters).split()
    unbroken = "\n".join(c.text for c in processed(with_text(doc, typeset)).chapters).split()
    wrong = [w for w in set(unbroken) - set(words) if "-" in w]
    assert breaks > 100
    assert len(wrong) <= 0.02 * breaks, wrong
