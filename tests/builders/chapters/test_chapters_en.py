"""English chapter headings on small synthetic books, one case each."""

from __future__ import annotations

import pytest

from lengthwise.builders.chapters import detect_chapters

BODY = "It was a fine day, and everybody went out walking in the park until it grew dark. " * 5


def book(*headings: str, body: str = BODY) -> str:
    """A book with a title block and one paragraph under each heading."""
    return "MY BOOK\n\nBy Somebody\n\n\n" + "".join(f"{h}\n\n{body}\n\n" for h in headings)


@pytest.mark.parametrize(
    ("headings", "numbers"),
    [
        (["CHAPTER I", "CHAPTER II.", "CHAPTER XLIV"], [1, 2, 44]),
        (["Chapter 1", "Chapter 2", "Chapter 3"], [1, 2, 3]),
        (["CHAPTER ONE", "CHAPTER TWO", "Chapter Twenty-One"], [1, 2, 21]),
        (["Chapter the First", "Chapter the Second"], [1, 2]),
        (["CHAP. I.", "CHAP. II."], [1, 2]),
        (["STAVE ONE", "STAVE TWO", "STAVE THREE"], [1, 2, 3]),
        (["LETTER I", "LETTER II"], [1, 2]),
        (["Chapter MMM", "Chapter MMMI"], [3000, 3001]),
    ],
)
def test_heading_forms(headings: list[str], numbers: list[int]) -> None:
    result = detect_chapters(book(*headings), "en")
    assert [c.number for c in result.chapters] == numbers
    assert all(c.kind == "chapter" for c in result.chapters)


def test_title_after_the_number() -> None:
    result = detect_chapters(book("CHAPTER 1. Loomings.", "CHAPTER 2: The Carpet-Bag"), "en")
    assert [c.title for c in result.chapters] == ["Loomings", "The Carpet-Bag"]
    assert result.chapters[0].heading == "CHAPTER 1. Loomings."
    assert result.chapters[0].text == BODY.rstrip()


def test_keyword_in_prose_is_not_a_heading() -> None:
    text = book("Chapter 1", "Chapter 2")
    text += "Chapter five was the best of them, he said.\n\nBook two of the series sold well.\n\n"
    result = detect_chapters(text, "en")
    assert [c.number for c in result.chapters] == [1, 2]
    assert "Chapter five was" in result.chapters[1].text


def test_prologue_and_epilogue() -> None:
    result = detect_chapters(book("PROLOGUE", "CHAPTER I", "CHAPTER II", "Epilogue"), "en")
    assert [(c.kind, c.number) for c in result.chapters] == [
        ("prologue", None),
        ("chapter", 1),
        ("chapter", 2),
        ("epilogue", None),
    ]
    assert result.gaps == []


def test_numbering_restarts_under_book_headings() -> None:
    text = book(
        "BOOK ONE: 1805", "CHAPTER I", "CHAPTER II", "BOOK TWO: 1806", "CHAPTER I", "CHAPTER III"
    )
    result = detect_chapters(text, "en")
    assert [(c.part, c.number) for c in result.chapters] == [
        ("BOOK ONE: 1805", 1),
        ("BOOK ONE: 1805", 2),
        ("BOOK TWO: 1806", 1),
        ("BOOK TWO: 1806", 3),
    ]
    assert result.duplicates == []  # 1 in each book is not a duplicate
    assert result.gaps == [(2, 2)]  # but BOOK TWO misses its chapter 2


def test_numbered_epilogue_with_chapters_is_a_part() -> None:
    text = book("PART I", "Chapter 1", "Chapter 2", "FIRST EPILOGUE: 1813 - 20", "Chapter 1")
    result = detect_chapters(text, "en")
    assert [c.part for c in result.chapters] == [
        "PART I",
        "PART I",
        "FIRST EPILOGUE: 1813 - 20",
    ]
    assert [c.kind for c in result.chapters] == ["chapter"] * 3


def test_parts_alone_are_the_chapters() -> None:
    result = detect_chapters(book("PART ONE", "PART TWO", "PART THREE"), "en")
    assert [(c.number, c.part) for c in result.chapters] == [(1, None), (2, None), (3, None)]


def test_letters_before_chapters_are_separate_runs() -> None:
    result = detect_chapters(book("Letter 1", "Letter 2", "Chapter 1", "Chapter 2"), "en")
    assert [c.heading for c in result.chapters] == [
        "Letter 1",
        "Letter 2",
        "Chapter 1",
        "Chapter 2",
    ]
    assert result.duplicates == []


def test_gap_and_duplicate_are_reported() -> None:
    result = detect_chapters(book("Chapter 1", "Chapter 12", "Chapter 12"), "en")
    assert [c.number for c in result.chapters] == [1, 12, 12]
    assert result.gaps == [(2, 11)]
    assert result.duplicates == [12]


def test_bare_roman_numerals_when_nothing_else() -> None:
    result = detect_chapters(book("I.", "II.", "III."), "en")
    assert [c.number for c in result.chapters] == [1, 2, 3]


def test_numbered_list_items_are_not_chapters() -> None:
    text = "NOTES\n\n1. Buy milk\n\n2. Call Anne\n\n3. Pay rent\n\n"
    assert detect_chapters(text, "en").excluded == "no chapter headings found"


def test_story_collection_by_keyword() -> None:
    text = book(
        "ADVENTURE I. A SCANDAL IN BOHEMIA",
        "ADVENTURE II. THE RED-HEADED LEAGUE",
        "III. THE ADVENTURE OF THE BLUE CARBUNCLE",  # continues the run without the keyword
    )
    result = detect_chapters(text, "en")
    assert [c.number for c in result.chapters] == [1, 2, 3]
    assert result.story_collection
    assert result.story_collection_reason == "ADVENTURE headings with unrelated titles"


def test_story_collection_by_restarting_sections() -> None:
    story = f"I.\n\n{BODY}\n\nII.\n\n{BODY}"
    text = book("CHAPTER I. The Red Room", "CHAPTER II. The Green Door", body=story)
    result = detect_chapters(text, "en")
    assert len(result.chapters) == 2
    assert result.story_collection
    assert result.story_collection_reason is not None
    assert "restart" in result.story_collection_reason


def test_a_novel_is_not_a_story_collection() -> None:
    result = detect_chapters(book("CHAPTER I. Down", "CHAPTER II. Up"), "en")
    assert (result.story_collection, result.story_collection_reason) == (False, None)


def test_short_chapters_are_kept_and_listed() -> None:
    text = book("Chapter 1", "Chapter 2") + "Chapter 3\n\nThe end.\n"
    result = detect_chapters(text, "en", min_chapter_chars=200)
    assert [c.number for c in result.chapters] == [1, 2, 3]
    assert result.short_chapters == [2]
