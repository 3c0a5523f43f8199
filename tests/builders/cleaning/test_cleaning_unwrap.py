"""Paragraph unwrapping: the wrap width comes from the book, structure is never joined."""

from __future__ import annotations

import random
import textwrap

from lengthwise.builders.cleaning.unwrap import unwrap_paragraphs, wrap_width

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


def test_a_line_end_hyphen_stays_unless_the_book_spells_the_word_without_it() -> None:
    book, _ = wrapped_book()
    compound = "They walked along the road until the morning and spoke of to-\nmorrow all day.\n"
    broken = "They walked along the road until the morning and spoke of some-\nthing else.\n"
    elsewhere = "Something was wrong with the road that morning, and nobody knew it.\n"
    outcome = unwrap_paragraphs(book + "\n" + compound + "\n" + broken + "\n" + elsewhere)
    assert "spoke of to-morrow all day." in outcome.text
    assert "spoke of something else." in outcome.text


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
