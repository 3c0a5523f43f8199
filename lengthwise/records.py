"""The records that flow between stages.

Plain dataclasses serialised as JSON rows. Each field means one thing; counts
and reasons live in reports (`lengthwise.reports`), not in records.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from lengthwise.errors import InputFileError
from lengthwise.storage import sha256_text


def slugify(text: str, fallback: str = "book") -> str:
    """A stable, filesystem-safe id fragment; keeps CJK characters, drops punctuation."""
    normalised = unicodedata.normalize("NFKC", text).strip().lower()
    slug = re.sub(r"[^\w]+", "-", normalised, flags=re.UNICODE).strip("-_")
    return slug[:80] or fallback


# Invisible characters web copies sprinkle through text (zero-width space/joiners, word
# joiner, BOM, soft hyphen) and control characters: never part of a title.
_INVISIBLE = re.compile(r"[\u200b-\u200d\u2060\ufeff\u00ad\x00-\x08\x0b-\x1f\x7f]+")


def display_title(title: str) -> str:
    """A title as people should read it: invisible and control characters removed, runs
    of whitespace (no-break and ideographic spaces included) as one space."""
    return " ".join(_INVISIBLE.sub("", title).split())


@dataclass
class SourceDocument:
    """One raw book as read from a source, decoded but not yet cleaned.

    `toc` holds the entries of an embedded table of contents when the format has
    one (EPUB): chapter detection then trusts it instead of guessing headings.
    """

    id: str
    title: str
    source: str  # path, URL, "gutenberg:<id>" or "hf:<dataset>[<split>]#<row>"
    text: str
    encoding: str
    raw_sha256: str
    language: str | None = None  # a hint from the source (EPUB metadata, spec); None = detect
    author: str | None = None
    license_note: str | None = None
    undecodable_bytes: int = 0
    toc: list[TocEntry] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    # Where `title` came from: "gutenberg-header", "text" (a title line in the book),
    # "epub", "html", "markdown", "hf-column", or "filename" (nothing better was found).
    title_source: str = "filename"

    def __post_init__(self) -> None:
        # Titles are read from text before cleaning (a title line, a file name, metadata).
        self.title = display_title(self.title)
        if self.author is not None:
            self.author = display_title(self.author)


@dataclass
class TocEntry:
    """A chapter from an embedded table of contents, with its own text."""

    title: str
    text: str


@dataclass
class Chapter:
    book_id: str
    index: int  # 0-based position in the book, after detection
    heading: str  # the heading line as printed, e.g. "第一回" or "CHAPTER XII."
    number: int | None  # the printed number as an integer (None for prologue/epilogue)
    title: str  # heading text after the number ("宴桃园豪杰三结义"), may be empty
    text: str  # body text without the heading
    part: str | None = None  # enclosing BOOK/PART/VOLUME heading, if any
    # tokenizer id -> tokens of the chapter as rendered in samples (heading line + body)
    token_counts: dict[str, int] = field(default_factory=dict)
    # tokenizer id -> tokens of the rendered chapter followed by the chapter separator;
    # only for tokenizers whose counts add up across chapter joints (builders.joining)
    token_counts_followed: dict[str, int] = field(default_factory=dict)
    sha256: str = ""

    def __post_init__(self) -> None:
        if not self.sha256:
            self.sha256 = sha256_text(self.text)


@dataclass
class Book:
    id: str
    title: str
    language: str
    source: str
    raw_sha256: str
    encoding: str
    chapters: list[Chapter] = field(default_factory=list)
    author: str | None = None
    license_note: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, row: dict[str, Any]) -> Book:
        data = dict(row)
        data["chapters"] = [Chapter(**c) for c in data.get("chapters", [])]
        return cls(**data)


# The columns the build writes for every sample, in file order. Annotation adds its
# own columns after these (WORK/samples_annotated); releases rename some (`text` ->
# `context`) at their boundary only (releases/release/schema.py).
SAMPLE_COLUMNS: tuple[str, ...] = (
    "id",
    "subset",
    "book_id",
    "book_title",
    "language",
    "first_chapter",
    "last_chapter",
    "chapter_titles",
    "chapter_sha256",
    "text",
    "tokens",
    "tokenizer",
    "token_counts",
    "target",
    "lower",
    "upper",
    "parent_id",
    "source",
)
_INT_COLUMNS = ("first_chapter", "last_chapter", "tokens", "target", "lower", "upper")
_STR_COLUMNS = ("id", "subset", "book_id", "book_title", "language", "text", "tokenizer")


@dataclass(frozen=True)
class Sample:
    """One sample: a run of consecutive chapters of one book, exactly as evaluated.

    `extra` holds the columns later stages added to the row (the annotation review's
    `summary`, `annotators`, ...), keyed by column name, in file order.
    """

    id: str
    subset: str
    book_id: str
    book_title: str
    language: str
    first_chapter: int  # 0-based, inclusive
    last_chapter: int
    chapter_titles: list[str]
    chapter_sha256: list[str]
    text: str
    tokens: int  # in the primary tokenizer
    tokenizer: str
    token_counts: dict[str, int]  # tokenizer id -> tokens of `text`
    target: int
    lower: int
    upper: int
    parent_id: str | None
    source: str
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def summary(self) -> str | None:
        """The reference summary once annotated; None when absent or blank."""
        value = self.extra.get("summary")
        return value if isinstance(value, str) and value.strip() else None

    def to_row(self) -> dict[str, Any]:
        row = {name: getattr(self, name) for name in SAMPLE_COLUMNS}
        row.update(self.extra)
        return row

    @classmethod
    def from_row(cls, row: Mapping[str, Any], where: str) -> Sample:
        """A sample from a parquet row; `where` names the file and row in errors."""
        missing = [name for name in SAMPLE_COLUMNS if name not in row]
        if missing:
            raise InputFileError(f"{where}: missing columns {missing}")
        bad = [n for n in _STR_COLUMNS if not isinstance(row[n], str)]
        bad += [n for n in _INT_COLUMNS if not isinstance(row[n], int)]
        if bad:
            raise InputFileError(f"{where}: columns {bad} have the wrong type")
        values: dict[str, Any] = {name: row[name] for name in SAMPLE_COLUMNS}
        values["chapter_titles"] = list(row["chapter_titles"] or [])
        values["chapter_sha256"] = list(row["chapter_sha256"] or [])
        values["token_counts"] = {
            k: int(v) for k, v in (row["token_counts"] or {}).items() if v is not None
        }
        extra = {k: v for k, v in row.items() if k not in values}
        return cls(**values, extra=extra)


def sample_arrow_schema(tokenizer_ids: Sequence[str]) -> Any:
    """The parquet schema of the build's sample columns (`pyarrow.Schema`)."""
    import pyarrow as pa

    strings = pa.list_(pa.string())
    return pa.schema(
        [
            ("id", pa.string()),
            ("subset", pa.string()),
            ("book_id", pa.string()),
            ("book_title", pa.string()),
            ("language", pa.string()),
            ("first_chapter", pa.int64()),
            ("last_chapter", pa.int64()),
            ("chapter_titles", strings),
            ("chapter_sha256", strings),
            ("text", pa.string()),
            ("tokens", pa.int64()),
            ("tokenizer", pa.string()),
            ("token_counts", pa.struct([(t, pa.int64()) for t in tokenizer_ids])),
            ("target", pa.int64()),
            ("lower", pa.int64()),
            ("upper", pa.int64()),
            ("parent_id", pa.string()),
            ("source", pa.string()),
        ]
    )
