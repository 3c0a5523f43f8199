"""Poetry and epistolary books, told from the text's own statistics (excluded from ordering).

Ada-LEval leaves both out of TSort: verse lines and letters can be ordered by their form
(rhyme and stanza, dates and salutations) rather than by the narrative.

- verse share: the share of the book's characters in verse-like lines, i.e. short lines
  (en at most 60 characters, zh at most 20) inside a paragraph of two or more lines (a
  stanza), or in a run of four or more one-line short paragraphs of similar length (at
  most 1.5 times apart: one verse line per paragraph). Prose paragraphs of cleaned books
  are single lines; a novel quoting a poem stays far below the threshold.
- letter share: the share of chapters opening like a letter: among their first three
  paragraphs one is a salutation (a short paragraph, at most 8 words / 16 characters,
  without quotation marks, ending with a comma, colon or dash: "My dear Jane,") or a
  dateline (a short paragraph holding a number, zh a numeral before 年/月/日).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from lengthwise.records import Book
from lengthwise.text import paragraphs
from lengthwise.text.numerals import NUMERAL_CLASS

VERSE_SHARE_LIMIT = 0.35
LETTER_SHARE_LIMIT = 0.5
MIN_LETTER_CHAPTERS = 2
POETRY = "book excluded: poetry (verse-like lines)"
EPISTOLARY = "book excluded: epistolary (chapters open like letters)"
_SHORT_LINE = {"en": 60, "zh": 20}
_RUN = 4
_QUOTES = set("\"“”‘’'「」『』")
_ZH_DATE = re.compile(f"[{NUMERAL_CLASS}]+\\s*[年月日号]")
_NUMBER = re.compile(r"\d")


@dataclass(frozen=True)
class BookForm:
    verse_share: float
    letter_share: float  # of chapters
    chapters: int

    def exclusion(self) -> str | None:
        """The drop reason when the book is poetry or letters, else None."""
        if self.verse_share >= VERSE_SHARE_LIMIT:
            return POETRY
        if self.chapters >= MIN_LETTER_CHAPTERS and self.letter_share >= LETTER_SHARE_LIMIT:
            return EPISTOLARY
        return None

    def describe(self) -> str:
        return f"verse {self.verse_share:.0%}, letter-like chapters {self.letter_share:.0%}"


def _is_short(line: str, language: str) -> bool:
    return 0 < len(line.strip()) <= _SHORT_LINE.get(language, 60)


def _verse_chars(paras: Sequence[str], language: str) -> int:
    total = 0
    run: list[int] = []

    def close_run() -> int:
        lengths = sorted(run)
        similar = len(lengths) >= _RUN and lengths[-1] <= 1.5 * lengths[0]
        return sum(lengths) if similar else 0

    for paragraph in paras:
        lines = [line.strip() for line in paragraph.split("\n") if line.strip()]
        if len(lines) >= 2:
            total += sum(len(line) for line in lines if _is_short(line, language))
        if len(lines) == 1 and _is_short(lines[0], language):
            widened = [*run, len(lines[0])]
            if run and max(widened) > 1.5 * min(widened):
                total += close_run()
                run = []
            run.append(len(lines[0]))
            continue
        total += close_run()
        run = []
    return total + close_run()


def _opens_letter(paragraph: str, language: str) -> bool:
    text = paragraph.strip()
    short = len(text) <= 16 if language == "zh" else len(text.split()) <= 8
    if not short or "\n" in text or _QUOTES & set(text):
        return False
    if text[-1] in ",:;—-，：；":
        return True  # a salutation
    return bool(_ZH_DATE.search(text) if language == "zh" else _NUMBER.search(text))


def book_form(book: Book) -> BookForm:
    """The verse and letter statistics of `book` (see the module docstring)."""
    language = book.language
    chars = verse = letter_chapters = 0
    for chapter in book.chapters:
        paras = paragraphs(chapter.text)
        chars += sum(len(p) for p in paras)
        verse += _verse_chars(paras, language)
        if any(_opens_letter(p, language) for p in paras[:3]):
            letter_chapters += 1
    chapters = len(book.chapters)
    return BookForm(
        verse_share=verse / chars if chars else 0.0,
        letter_share=letter_chapters / chapters if chapters else 0.0,
        chapters=chapters,
    )
