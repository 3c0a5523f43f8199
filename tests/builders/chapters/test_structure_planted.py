"""Structure checks on planted texts: accounting, illustration headings, letters, inner
headings, next-line titles, glued headings in books without line breaks."""

from __future__ import annotations

import pytest

from lengthwise.builders.chapters import detect_chapters
from lengthwise.builders.chapters.accounting import account, outside_warning
from lengthwise.builders.chapters.model import ChapterDetection

BODY = "Some words of the story go on here, one after another, as stories do. " * 12


def accounted(text: str, detection: ChapterDetection) -> tuple[int, int]:
    spans = [(c.start or 0, c.end or 0) for c in detection.chapters]
    result = account(text, spans)
    return result.text_chars, result.chapter_chars + result.outside_chars + result.separator_chars


def test_every_character_is_accounted_for_and_front_matter_is_listed() -> None:
    text = (
        f"MY BOOK\n\nA preface of some length.\n\nCHAPTER I.\n\n{BODY}\n\nCHAPTER II.\n\n{BODY}\n"
    )
    detection = detect_chapters(text, "en")
    total, parts = accounted(text, detection)
    assert total == parts == len(text)
    result = account(text, [(c.start or 0, c.end or 0) for c in detection.chapters])
    [front] = result.spans
    assert (front.kind, front.offset, front.first_words) == (
        "front",
        0,
        "MY BOOK A preface of some length.",
    )
    assert front.length == text.index("CHAPTER I.")
    for chapter in detection.chapters:  # each body lies inside its own span
        assert chapter.text in text[chapter.start : chapter.end]


def test_outside_spans_kinds_notes_and_warning() -> None:
    text = "front\n" + "a" * 50 + "\nbetween\n" + "b" * 50 + "\nback\n"
    first, second = (6, 57), (65, 116)
    result = account(text, [first, second], kept_out=[])
    assert [(s.kind, s.first_words) for s in result.spans] == [
        ("front", "front"),
        ("between", "between"),
        ("back", "back"),
    ]
    assert result.text_chars == result.chapter_chars + result.outside_chars + result.separator_chars
    warning = outside_warning(result, 0.01)
    assert warning is not None and "outside chapters" in warning and "'between'" in warning
    assert outside_warning(result, 0.5) is None
    kept = account(text, [second], kept_out=[(first[0], first[1], "kept out")])
    assert [s.note for s in kept.spans if s.offset == first[0]] == ["kept out"]
    with pytest.raises(ValueError, match="overlaps"):
        account(text, [(0, 60), (50, 80)])


def test_heading_inside_an_illustration_block_counts() -> None:
    text = (
        f"[Illustration: CHAPTER I.\nThe Beginning]\n\n{BODY}\n\n"
        f"CHAPTER II.\n\n{BODY}\n\n[Illustration: CHAPTER III.]\n\n{BODY}"
    )
    detection = detect_chapters(text, "en")
    assert [c.number for c in detection.chapters] == [1, 2, 3]
    assert detection.chapters[0].title == "The Beginning"
    assert detection.front_matter_chars == 0  # the first chapter's opening is in chapter 1


def test_epistolary_opening_is_chapters_of_kind_letter() -> None:
    letters = "".join(
        f"LETTER {n}\n\n_To Mrs. Saville, England._\n\n{BODY}\n\n" for n in range(1, 5)
    )
    chapters = "".join(f"CHAPTER {n}\n\n{BODY}\n\n" for n in range(1, 4))
    detection = detect_chapters(letters + chapters, "en")
    assert [c.kind for c in detection.chapters] == ["letter"] * 4 + ["chapter"] * 3
    assert [c.number for c in detection.chapters] == [1, 2, 3, 4, 1, 2, 3]
    assert (detection.gaps, detection.duplicates) == ([], [])


def test_headings_inside_a_chapter_do_not_split_it_nor_name_a_part() -> None:
    inner = "".join(
        f"BOOK {book}. (FOLIO), CHAPTER {n}. (WHALE).--This whale is seen\nat sea. {BODY}\n\n"
        for book in ("I", "II")
        for n in ("I", "II")
    )
    text = (
        f"CHAPTER 1. One.\n\n{BODY}\n\nCHAPTER 2. Cetology.\n\n{BODY}\n\n{inner}"
        f"CHAPTER 3. Three.\n\n{BODY}\n\nCHAPTER 4. Four.\n\n{BODY}"
    )
    detection = detect_chapters(text, "en")
    assert [c.number for c in detection.chapters] == [1, 2, 3, 4]
    assert all(c.part is None for c in detection.chapters)
    assert "BOOK II. (FOLIO), CHAPTER II." in detection.chapters[1].text
    assert len(detection.inner_headings) == 4
    assert any("do not continue the numbering" in w for w in detection.warnings)


def test_title_on_the_line_after_the_heading_leaves_the_body() -> None:
    text = (
        f"CHAPTER I.\nDown the Rabbit-Hole\n\n\n{BODY}\n\nCHAPTER II.\n\n\u201cTOM!\u201d\n\n{BODY}"
        f"\n\nCHAPTER III.\n\nIt was a fine day and nothing happened at all, said she.\n\n{BODY}"
    )
    chapters = detect_chapters(text, "en").chapters
    assert [c.title for c in chapters] == ["Down the Rabbit-Hole", "", ""]
    assert chapters[0].heading == "CHAPTER I.\nDown the Rabbit-Hole"  # as printed
    assert not chapters[0].text.startswith("Down")
    assert chapters[1].text.startswith("\u201cTOM!\u201d")  # dialogue is body, not a title


def test_length_outliers_and_headings_holding_body_text_are_warned() -> None:
    chapters = [f"CHAPTER {n}.\n\n{BODY}\n\n" for n in range(1, 7)]
    chapters.append(f"CHAPTER 7. He said it. and then he went on to say more\n\n{BODY * 8}")
    warnings = detect_chapters("".join(chapters), "en").warnings
    assert any("over 5x the median" in w and "CHAPTER 7" in w for w in warnings)
    assert any("hold body text" in w for w in warnings)


def test_book_without_line_breaks_is_chaptered_by_glued_headings() -> None:
    poem = "詩曰：天下荒荒起戰場，致生讒佞亂家邦。"
    prose = "話說紂王聽奏大喜，即時還宮。" * 30
    text = "封神演義封神演義" + "".join(
        f"第{n}回{title}{poem}{prose}且聽下回分解。"
        for n, title in zip(
            "一二三四五",
            [
                "紂王女媧宮進香",
                "冀州侯蘇護反商",
                "姬昌解圍進妲己",
                "恩州驛狐狸死妲己",
                "雲中子進劍除妖",
            ],
            strict=True,
        )
    )
    text = text.replace("且聽下回分解。第三回", "且聽下回分解。在第三回中提起。第三回")
    detection = detect_chapters(text, "zh")
    assert detection.numbers == [1, 2, 3, 4, 5]
    assert [c.title for c in detection.chapters][:2] == ["紂王女媧宮進香", "冀州侯蘇護反商"]
    assert all(c.text.startswith("詩曰：") for c in detection.chapters)
    spans = [(c.start or 0, c.end or 0) for c in detection.chapters]
    assert account(text, spans).spans[0].first_words == "封神演義封神演義"
