"""The records that flow between stages.

Plain dataclasses serialised as JSON rows. Each field means one thing; counts
and reasons live in reports (`lengthwise.reports`), not in records.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import asdict, dataclass, field
from typing import Any

from lengthwise.storage import sha256_text


def slugify(text: str, fallback: str = "book") -> str:
    """A stable, filesystem-safe id fragment; keeps CJK characters, drops punctuation."""
    normalised = unicodedata.normalize("NFKC", text).strip().lower()
    slug = re.sub(r"[^\w]+", "-", normalised, flags=re.UNICODE).strip("-_")
    return slug[:80] or fallback


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
