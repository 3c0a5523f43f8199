"""The same book set in another layout gives the same chapters, character for character
(whitespace aside): paragraphs a line each with no blank lines, indented first lines
with no blank lines (hard-wrapped or not), CRLF line ends; for Chinese, a wrap at a
fixed width of 35 characters with and without blank lines.

Found by setting every shared book in these layouts (a held-out probe: the books were
never looked at in these layouts before). Before the fixes:
- Pride and Prejudice with no blank lines lost every heading (`Chapter 12` lines were
  learned as page markers, as no heading line was "set off") and was excluded with "no
  chapter headings found"; War and Peace kept 72 of 365 chapters; Tom Sawyer lost the
  chapter its edition misnumbers (`CHAPTER XVI` for XXVI), which is believed only when
  set off. English heading strength is now read against the book's layout
  (`candidates_en.Layout`).
- Moby Dick, hard-wrapped with indented paragraphs and no blank lines, kept four
  two-line headings cut in half (the title's second line went to the body).
- 红楼梦 at a fixed width kept a site menu bar: the wrap cut it into two lines, the second
  was removed as a menu line of its own, the first ended with its separator `|`.
- Pride and Prejudice and Tom Sawyer with headings reprinted as `* 12 *` or `— 12 —` and
  no blank lines were excluded: such number lines were looked for only between blank
  lines.
- The Phantom of the Opera (pg175) without blank lines kept its `[1] …` footnotes while
  their markers went (notes were looked for after blank lines only); The Scarlet Letter
  (pg25344) lost its chapter titles printed below the heading (`I.` / `THE
  PRISON-DOOR.`: a title had to be followed by a blank line). Monte Cristo (pg1184,
  30 notes) was checked after the fix.
- War and Peace with a paragraph a line lost its table of letters and numbers as an
  unmarked footnote (it was set in the notes' indentation).
Written against the failures of Pride and Prejudice, Tom Sawyer, Moby Dick and 红楼梦;
War and Peace, Sherlock, Alice, 西游记 and 三国演义 were checked after the fixes.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from lengthwise.builders.chapters.bare_en import find_en_loose_bare_candidates
from lengthwise.builders.chapters.candidates_en import find_en_candidates
from lengthwise.builders.chapters.layout import Layout
from lengthwise.builders.chapters.next_line_titles import title_after
from lengthwise.builders.cleaning import clean_text
from lengthwise.builders.corpus import process_document
from lengthwise.records import Book
from lengthwise.spec import CleaningConfig
from tests.fixtures.reprinting import (
    SETTINGS,
    processed,
    read_shared,
    reprint_headings,
    with_text,
)

EN, ZH = "en_pg_stripped", "zh_simplified_four_classics"


def _paragraphs(text: str) -> list[str]:
    return [" ".join(p.split("\n")) for p in re.split(r"\n\s*\n", text) if p.strip()]


def paragraph_lines(text: str) -> str:
    """A paragraph a line, no blank lines."""
    return "\n".join(_paragraphs(text))


def indented_paragraphs(text: str) -> str:
    """A paragraph a line, each indented by four spaces, no blank lines."""
    return "\n".join("    " + p for p in _paragraphs(text))


def wrapped_indented(text: str) -> str:
    """Hard-wrapped at 66 columns, first lines indented by three spaces, no blank lines."""
    return "\n".join(
        textwrap.fill(p, 66, initial_indent="   ", break_on_hyphens=False)
        for p in _paragraphs(text)
    )


def crlf(text: str) -> str:
    return text.replace("\n", "\r\n")


def zh_fixed_width(text: str, blank_lines: bool = True) -> str:
    """Lines longer than 40 characters cut every 35 characters (at any character)."""
    lines = [line.strip() for line in text.split("\n")]
    if not blank_lines:
        lines = ["\u3000\u3000" + line for line in lines if line]
    return "\n".join(
        "\n".join(line[i : i + 35] for i in range(0, len(line), 35)) if len(line) > 40 else line
        for line in lines
    )


def _chapters(book: Book) -> list[tuple[str, str]]:
    """Each chapter's heading and text, whitespace aside (a layout moves only that)."""
    return [(" ".join(c.heading.split()), "".join(c.text.split())) for c in book.chapters]


def _same_chapters(
    shared_corpora: Path, folder: str, name: str, layout: Callable[[str], str]
) -> None:
    doc = read_shared(shared_corpora, folder, name)
    reference = _chapters(processed(doc))
    relaid = _chapters(processed(with_text(doc, layout(doc.text))))
    assert [h for h, _ in relaid] == [h for h, _ in reference]
    differing = [h for (h, a), (_, b) in zip(reference, relaid, strict=True) if a != b]
    assert differing == []


@pytest.mark.slow
@pytest.mark.parametrize(
    "layout",
    [paragraph_lines, indented_paragraphs, wrapped_indented, crlf],
    ids=lambda f: f.__name__,
)
@pytest.mark.parametrize(
    "name", ["pride_and_prejudice.txt", "tom_sawyer.txt", "sherlock.txt", "alice_in_wonderland.txt"]
)
def test_an_english_book_in_another_layout_keeps_its_chapters(
    shared_corpora: Path, name: str, layout: Callable[[str], str]
) -> None:
    _same_chapters(shared_corpora, EN, name, layout)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "layout"),
    [
        ("pg175.txt", indented_paragraphs),
        ("pg175.txt", wrapped_indented),
        ("pg1184.txt", indented_paragraphs),
        ("pg25344.txt", indented_paragraphs),
        ("pg25344.txt", wrapped_indented),
    ],
    ids=lambda value: getattr(value, "__name__", value),
)
def test_a_raw_gutenberg_file_without_blank_lines_keeps_its_notes_apart_and_its_titles(
    shared_corpora: Path, name: str, layout: Callable[[str], str]
) -> None:
    """Footnote paragraphs (`[1] …`) open after a paragraph's end and run to their own
    end; a title stands on the line below its heading (`I.` / `THE PRISON-DOOR.`), and a
    wrapped subtitle's first line is no title."""
    _same_chapters(shared_corpora, "en_pg_raw", name, layout)


@pytest.mark.slow
def test_two_line_headings_stay_whole_in_a_wrapped_book_without_blank_lines(
    shared_corpora: Path,
) -> None:
    _same_chapters(shared_corpora, EN, "moby_dick.txt", wrapped_indented)


@pytest.mark.slow
@pytest.mark.parametrize("blank_lines", [True, False])
@pytest.mark.parametrize("name", ["hongloumeng_utf8.txt", "xiyouji_utf8.txt"])
def test_a_chinese_book_cut_at_a_fixed_width_keeps_its_chapters(
    shared_corpora: Path, name: str, blank_lines: bool
) -> None:
    _same_chapters(shared_corpora, ZH, name, lambda text: zh_fixed_width(text, blank_lines))


@pytest.mark.slow
@pytest.mark.parametrize("form", ["* {} *", "— {} —"])
@pytest.mark.parametrize("name", ["pride_and_prejudice.txt", "tom_sawyer.txt"])
def test_decorated_number_headings_are_found_without_blank_lines(
    shared_corpora: Path, name: str, form: str
) -> None:
    """Headings printed as a decorated number alone (`* 12 *`) are looked for on lines
    set off by blank lines, or, in a book without them, after a paragraph's end."""
    doc = read_shared(shared_corpora, EN, name)
    reference = processed(doc)
    numbered = reprint_headings(doc, reference, lambda chapter: form.format(chapter.number))
    relaid = processed(with_text(numbered, paragraph_lines(numbered.text)))
    assert [c.number for c in relaid.chapters] == [c.number for c in reference.chapters]
    assert [c.heading for c in relaid.chapters][:2] == [form.format(1), form.format(2)]


@pytest.mark.slow
def test_war_and_peace_without_blank_lines_keeps_its_books_and_chapters(
    shared_corpora: Path,
) -> None:
    """Chapter numbering restarts in every BOOK: only headings set off count as a
    restart. Its marked notes (`(1) …` after a paragraph's end) still pair with their
    references; its unmarked translator's notes are told by their indentation, which
    this layout erases: they stay, so only headings and the marked notes are compared."""
    doc = read_shared(shared_corpora, EN, "war_and_peace.txt")
    reference, reference_report = process_document(doc, SETTINGS)
    relaid, report = process_document(with_text(doc, indented_paragraphs(doc.text)), SETTINGS)
    assert reference is not None and relaid is not None
    assert [c.heading for c in relaid.chapters] == [c.heading for c in reference.chapters]
    assert len(relaid.chapters) == 365
    marked = "en/symbol-footnote"
    assert report.removed[marked] == reference_report.removed[marked] > 0


@pytest.mark.slow
def test_a_table_of_letters_and_numbers_is_no_unmarked_note(shared_corpora: Path) -> None:
    doc = read_shared(shared_corpora, EN, "war_and_peace.txt")
    # A paragraph a line, blank lines kept: the indentation of first lines stays.
    cleaned = clean_text("\n\n".join(_paragraphs(doc.text)), "en", CleaningConfig())
    assert re.search(r"a +b +c +d +e +f +g +h +i +k +1 +2 +3", cleaned.text)
    # The notes around it still go: the table was the only difference.
    reference = clean_text(doc.text, "en", CleaningConfig())
    assert cleaned.removed["en/unmarked-footnote"] == reference.removed["en/unmarked-footnote"]


def _book_without_blank_lines(lines_before_heading: list[str], heading: str) -> str:
    prose = (
        "He walked along the river for a long time, thinking of nothing at all, until the "
        "light began to fail and the water turned grey under the willows."
    )
    body = [textwrap.fill(prose, 70)] * 120
    return "\n".join([*body, *lines_before_heading, heading, *body])


def test_without_blank_lines_a_heading_is_set_off_by_the_end_of_the_paragraph_above() -> None:
    text = _book_without_blank_lines(["And so it ended."], "CHAPTER XII. The Return")
    [candidate] = [c for c in find_en_candidates(text) if c.number == 12]
    assert not Layout.of(text).blank_line_paragraphs
    assert candidate.strong


def test_without_blank_lines_a_wrapped_line_of_prose_does_not_set_a_heading_off() -> None:
    above = "the story went on as the old man had told it long before, as written in"
    text = _book_without_blank_lines([above], "CHAPTER XII. The old man's book, and more")
    [candidate] = [c for c in find_en_candidates(text) if c.number == 12]
    assert not candidate.strong


def test_with_blank_lines_only_a_blank_line_sets_a_heading_off() -> None:
    paragraph = textwrap.fill("It was late. " * 30, 70)
    text = "\n\n".join([paragraph] * 60) + "\nAnd so it ended.\nCHAPTER XII. The Return\n"
    [candidate] = [c for c in find_en_candidates(text) if c.number == 12]
    assert Layout.of(text).blank_line_paragraphs
    assert not candidate.strong


def test_without_blank_lines_a_number_line_inside_a_paragraph_is_no_heading() -> None:
    inside = "and on the door of the shop the price of the clock was marked as"
    text = _book_without_blank_lines([inside], "— 3 —")
    text += "\nAnd so it ended.\n— 4 —\n" + text[: len(text) // 2]
    numbers = [c.number for c in find_en_loose_bare_candidates(text)]
    assert numbers == [4]


def test_without_blank_lines_a_title_below_a_heading_ends_its_line_as_a_paragraph() -> None:
    body = _book_without_blank_lines(["And so it ended."], "CHAPTER I.")
    heading_end = body.index("CHAPTER I.") + len("CHAPTER I.")
    titled = body[:heading_end] + "\nThe Return" + body[heading_end:]
    title, _ = title_after(titled, heading_end) or ("", 0)
    assert title == "The Return"
    # Title-cased, but the first line of a wrapped paragraph: it runs on below.
    wrapped = "\nThe Old Man And The Sea Were Both There Waiting For The Long Boat That\ncame in."
    assert title_after(body[:heading_end] + wrapped + body[heading_end:], heading_end) is None


def test_blank_lines_holding_spaces_still_set_paragraphs_apart() -> None:
    paragraph = textwrap.fill("It was late and the dog barked at the gate. " * 6, 70)
    text = "\n   \n".join([paragraph] * 100)
    assert Layout.of(text).blank_line_paragraphs
    assert not Layout.of(text.replace("\n   \n", "\n")).blank_line_paragraphs
