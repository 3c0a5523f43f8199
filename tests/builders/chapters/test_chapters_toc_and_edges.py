"""Tables of contents (in the text and embedded), empty input, bad arguments, invariants."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lengthwise.builders.chapters import detect_chapters
from lengthwise.records import TocEntry

BODY = "It was a fine day, and everybody went out walking in the park until it grew dark. " * 5


def chapters(*headings: str) -> str:
    return "".join(f"{h}\n\n{BODY}\n\n" for h in headings)


def test_contents_list_does_not_double_the_chapters() -> None:
    contents = "CONTENTS\n\n" + "".join(f"CHAPTER {r}. Title {r}\n\n" for r in ("I", "II", "III"))
    text = contents + chapters(
        "CHAPTER I. Title I", "CHAPTER II. Title II", "CHAPTER III. Title III"
    )
    result = detect_chapters(text, "en")
    assert [c.number for c in result.chapters] == [1, 2, 3]
    assert result.toc_headings_dropped == 3
    assert result.front_matter_chars == text.index("CHAPTER I. Title I\n\nIt was")
    assert result.duplicates == []


def test_last_contents_line_that_owns_a_preface_is_still_a_contents_line() -> None:
    # Tom Sawyer: the preface sits between the list and CHAPTER I, under the last entry.
    contents = "CONTENTS\n\nCHAPTER I. Tom\n\nCHAPTER II. Huck\n\nCHAPTER III. Becky\n\n"
    preface = "PREFACE\n\n" + BODY + "\n\n"
    text = contents + preface + chapters("CHAPTER I", "CHAPTER II", "CHAPTER III")
    result = detect_chapters(text, "en")
    assert [c.number for c in result.chapters] == [1, 2, 3]
    assert result.toc_headings_dropped == 3
    assert "PREFACE" not in "".join(c.text for c in result.chapters)


def test_contents_with_book_headings_keeps_the_real_books() -> None:
    listing = "    BOOK ONE: 1805\n\n    CHAPTER I\n\n    CHAPTER II\n\n"
    listing += "    BOOK TWO: 1806\n\n    CHAPTER I\n\n"
    text = (
        "CONTENTS\n\n"
        + listing
        + "\n\n"
        + "BOOK ONE: 1805\n\n"
        + chapters("CHAPTER I", "CHAPTER II")
    )
    text += "BOOK TWO: 1806\n\n" + chapters("CHAPTER I")
    result = detect_chapters(text, "en")
    assert [(c.part, c.number) for c in result.chapters] == [
        ("BOOK ONE: 1805", 1),
        ("BOOK ONE: 1805", 2),
        ("BOOK TWO: 1806", 1),
    ]


def test_only_contents_lines_means_no_chapters() -> None:
    text = "CONTENTS\n\nCHAPTER I. A\n\nCHAPTER II. B\n\nCHAPTER III. C\n"
    result = detect_chapters(text, "en")
    assert result.chapters == []
    assert result.excluded == "no chapter headings found (only table-of-contents lines)"


def test_embedded_toc_is_used_directly() -> None:
    toc = [
        TocEntry(title="Cover", text=""),
        TocEntry(title="Preface", text="Why I wrote this. " * 20),
        TocEntry(title="Part One", text=""),
        TocEntry(title="Chapter 1: The Storm", text=BODY),
        TocEntry(title="Chapter 3: The Calm", text=BODY),
        TocEntry(title="Epilogue", text=BODY),
    ]
    result = detect_chapters("text that would say CHAPTER 9", "en", toc=toc)
    assert result.method == "toc"
    assert [(c.heading, c.number, c.title, c.kind, c.part) for c in result.chapters] == [
        ("Preface", None, "Preface", "preface", None),
        ("Chapter 1: The Storm", 1, "The Storm", "chapter", "Part One"),
        ("Chapter 3: The Calm", 3, "The Calm", "chapter", "Part One"),
        ("Epilogue", None, "Epilogue", "epilogue", "Part One"),
    ]
    assert result.gaps == [(2, 2)]
    assert result.front_matter_chars == 0


def test_embedded_toc_with_chinese_titles() -> None:
    toc = [TocEntry("第一回 开端", "正文一" * 100), TocEntry("第二回 结局", "正文二" * 100)]
    result = detect_chapters("", "zh", toc=toc)
    assert [(c.number, c.title) for c in result.chapters] == [(1, "开端"), (2, "结局")]


def test_single_entry_toc_falls_back_to_headings() -> None:
    toc = [TocEntry("Whole book", BODY)]
    result = detect_chapters(chapters("Chapter 1", "Chapter 2"), "en", toc=toc)
    assert result.method == "headings"
    assert [c.number for c in result.chapters] == [1, 2]


@pytest.mark.parametrize("text", ["", "   \n\n  "])
def test_empty_text_is_excluded(text: str) -> None:
    result = detect_chapters(text, "en")
    assert (result.chapters, result.excluded) == ([], "empty text")


@pytest.mark.parametrize("language", ["zh", "en"])
def test_text_without_headings_is_excluded_with_reason(language: str) -> None:
    result = detect_chapters(BODY * 50, language)
    assert result.chapters == []
    assert result.excluded == "no chapter headings found"


@pytest.mark.parametrize("language", ["zh-CN", "zh_Hans", "EN", "en-US"])
def test_language_codes_are_normalised(language: str) -> None:
    assert detect_chapters(chapters("Chapter 1", "Chapter 2"), language).numbers == [1, 2]


def test_other_languages_are_detected_with_their_own_heading_words() -> None:
    """A French book was an error ("unsupported language 'fr'"): its CHAPITRE and PARTIE
    headings are now read, ordinals included; only a malformed code is an error."""
    body = "Il était une fois un homme qui ne savait pas ce qu'il voulait. " * 10
    text = "".join(
        f"{part}\n\n" + "".join(f"CHAPITRE {n}\n\n{body}\n\n" for n in ("I", "II", "III"))
        for part in ("PREMIÈRE PARTIE", "DEUXIÈME PARTIE")
    )
    result = detect_chapters(text, "fr")
    assert result.numbers == [1, 2, 3, 1, 2, 3]
    assert [c.part for c in result.chapters] == ["PREMIÈRE PARTIE"] * 3 + ["DEUXIÈME PARTIE"] * 3
    with pytest.raises(ValueError, match="unsupported language 'f-1'"):
        detect_chapters("texte", "f-1")


def test_negative_min_chapter_chars_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="min_chapter_chars"):
        detect_chapters("text", "en", min_chapter_chars=-1)


def test_chapters_convert_to_core_records() -> None:
    detected = detect_chapters(chapters("Chapter 1. Start", "Chapter 2. End"), "en")
    records = [c.to_record("book-x", i) for i, c in enumerate(detected.chapters)]
    assert [(r.book_id, r.index, r.number, r.title) for r in records] == [
        ("book-x", 0, 1, "Start"),
        ("book-x", 1, 2, "End"),
    ]
    assert records[0].sha256  # computed from the text by the core record


FRAGMENTS = [
    "第一回 甲\n",
    "第二回 乙",
    "第四回中既将，",
    "。第三回 丙 ",
    "地五章\n",
    "楔子\n",
    "CHAPTER I.\n",
    "Chapter 2\n",
    "BOOK ONE\n",
    "Epilogue\n",
    "II.\n",
    "\n\n",
    "话说天下大势，分久必合。",
    "It was a dark night. ",
]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=40), st.sampled_from(["zh", "en"]))
def test_any_mix_of_heading_fragments_gives_a_consistent_result(
    pieces: list[str], language: str
) -> None:
    text = "".join(pieces)
    result = detect_chapters(text, language)
    assert result.numbers == [c.number for c in result.chapters]
    assert (result.excluded is None) == bool(result.chapters)
    assert 0 <= result.front_matter_chars <= len(text)
    position = result.front_matter_chars
    for chapter in result.chapters:
        assert chapter.start is not None and chapter.start >= position
        assert text.startswith(chapter.heading, chapter.start)
        position = text.index(chapter.text, chapter.start) + len(chapter.text)
