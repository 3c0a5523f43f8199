"""What chapter detection returns, and the heading candidates it reasons about."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from lengthwise.records import Chapter

# Kinds of detected chapters. Numbered chapters are "chapter"; the others come from
# keyword headings (PROLOGUE, 楔子, EPILOGUE, 尾声) or from an embedded ToC's titles.
# "letter": LETTER headings of an epistolary opening before the CHAPTERs (Frankenstein's
# Letters 1-4), numbered in their own series.
ChapterKind = Literal[
    "chapter",
    "letter",
    "prologue",
    "interlude",
    "epilogue",
    "preface",
    "afterword",
    "contents",
]
# Where text outside every chapter sits: before the first, after the last, or between two
# chapters (a part heading, a heading kept out of the chapters such as a zh 楔子).
OutsideKind = Literal["front", "back", "between"]

# Heading levels: a "part" (BOOK/PART/VOLUME/卷) groups chapters; a "special" is a
# PROLOGUE/EPILOGUE-like heading that is a chapter, or a part when chapters follow it
# in a book that has parts (War and Peace's FIRST EPILOGUE); a "bare" heading is a
# number alone on a line (`VII. THE ADVENTURE OF ...`), used only when nothing better exists.
HeadingLevel = Literal["part", "chapter", "special", "bare"]


@dataclass
class DetectedChapter:
    """One chapter: its heading as printed and its body text without the heading."""

    heading: str
    number: int | None
    title: str
    text: str
    part: str | None = None
    kind: ChapterKind = "chapter"
    start: int | None = None  # offset of the heading in the detected text (None from a ToC)
    end: int | None = None  # offset where the chapter's span ends (the next span's start)

    def to_record(self, book_id: str, index: int) -> Chapter:
        """The core `Chapter` record for this chapter at position `index` of `book_id`."""
        return Chapter(
            book_id=book_id,
            index=index,
            heading=self.heading,
            number=self.number,
            title=self.title,
            text=self.text,
            part=self.part,
        )


@dataclass
class ChapterDetection:
    """Chapters found in one book, with the numbering problems worth reporting.

    `gaps` are missing number ranges (inclusive), `duplicates` numbers printed twice
    within one numbering run (a part, when numbering restarts per part), `split_numbers`
    numbers of chapters printed in consecutive parts (`…（上）`, `…（下）`: not duplicates).
    `excluded` is the reason when no chapters were found (then `chapters` is empty).
    """

    chapters: list[DetectedChapter] = field(default_factory=list)
    numbers: list[int | None] = field(default_factory=list)
    gaps: list[tuple[int, int]] = field(default_factory=list)
    duplicates: list[int] = field(default_factory=list)
    split_numbers: list[int] = field(default_factory=list)  # chapters printed in parts (上/下)
    story_collection: bool = False
    story_collection_reason: str | None = None
    excluded: str | None = None
    front_matter_chars: int = 0
    # Where the chapters came from: an embedded ToC, heading lines, the titles of the
    # book's contents list (`contents_titles`), or nowhere.
    method: Literal["toc", "headings", "contents", "none"] = "none"
    toc_headings_dropped: int = 0  # headings dropped as lines of an in-text table of contents
    short_chapters: list[int] = field(default_factory=list)  # indexes below min_chapter_chars
    # Headings found but not believed as chapters (inner headings of a book-within-the-chapter,
    # parts that hold no chapters): they stay in the enclosing chapter's body.
    inner_headings: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # structure doubts a person should read
    # (start, end) of each next work's front matter in a file holding several works
    # (`work_boundaries`): outside every chapter.
    between_works: list[tuple[int, int]] = field(default_factory=list)


@dataclass
class Candidate:
    """A heading-like span found in the text, before sequence checks decide on it."""

    start: int  # offset of the heading's first character
    end: int  # offset where the body starts (end of the heading line, or of a glued title)
    level: HeadingLevel
    family: str  # normalised keyword: "CHAPTER", "ADVENTURE", "BOOK", "回", "卷", "bare", ...
    number: int | None
    heading: str
    title: str
    kind: ChapterKind = "chapter"
    strong: bool = True  # on a line of its own; weak ones (glued mid-line) need sequence support
    # False for a glued heading with no sentence end before it (`…曹雪芹第一回 …` in a book
    # without line breaks): believed only where it fits the numbering exactly.
    anchored: bool = True
    body_chars: int = 0  # stripped characters up to the next candidate (set by the ToC pass)
    # Where the heading's own line ends when its title was taken from the line below it
    # (`next_line_titles`); None otherwise.
    own_line_end: int | None = None
    # Glued on both sides with no whitespace at all (a book saved without line breaks): the
    # title is provisional, everything up to the first punctuation; `flat_titles` cuts it.
    flat: bool = False
    # Printed without its 第 (`…下回分解。五十二回談春秋…`): believed only where it fills the
    # numbering exactly, like an unanchored heading.
    unprefixed: bool = False
    # Which numbering run of its part and family (0, then 1 after the numbering starts again
    # at one with no part heading: `sequence.split_at_restarts`).
    run: int = 0
    # The numbers a heading whose number does not parse may stand for (`CHAPTER lV.`, an
    # OCR misreading: `misread_numbers`); such a heading has no number until its place in
    # the numbering gives it one.
    readings: tuple[int, ...] = ()
