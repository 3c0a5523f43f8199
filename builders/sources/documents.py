"""Raw bytes of one book (any supported format) -> `SourceDocument`.

Shared by local files and fetched URLs so both read formats the same way. The format comes
from the caller (file extension or Content-Type), except that an EPUB archive is recognised by
its content whatever it is called.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from lengthwise.builders.sources.decoding import (
    DecodedText,
    decode_bytes,
    decode_declared,
    is_epub_archive,
)
from lengthwise.builders.sources.epub import read_epub
from lengthwise.builders.sources.errors import SourceError
from lengthwise.builders.sources.formats import (
    MARKDOWN_HEADINGS_IN_TEXT,
    decode_markup,
    html_to_text,
    markdown_headings,
    markdown_to_text,
)
from lengthwise.builders.sources.text_titles import (
    aozora_title,
    has_title_text,
    repeated_title,
    title_line,
)
from lengthwise.builders.sources.titles import bracketed_title, parse_pg_header
from lengthwise.records import SourceDocument, slugify
from lengthwise.storage import sha256_bytes

Format = Literal["text", "markdown", "html", "epub"]

FORMAT_BY_EXTENSION: dict[str, Format] = {
    ".txt": "text",
    ".md": "markdown",
    ".html": "html",
    ".htm": "html",
    ".xhtml": "html",
    ".epub": "epub",
}


def build_document(
    data: bytes,
    *,
    name: str,
    source: str,
    doc_id: str,
    fallback_title: str,
    fmt: Format,
    language: str | None = None,
    declared_charset: str | None = None,
    fallback_source: str = "filename",
) -> SourceDocument:
    """Decode and extract one book; raises `SourceError` when the bytes hold no usable text.

    `language` (from the spec) overrides any hint the content carries; `fallback_title` is used
    when neither metadata nor a title line names the book (`title_source` is then
    `fallback_source`).
    """
    ident, raw_sha256 = slugify(doc_id), sha256_bytes(data)
    if fmt == "epub" or is_epub_archive(data):
        book = read_epub(data, name)
        return SourceDocument(
            id=ident,
            source=source,
            raw_sha256=raw_sha256,
            title=book.title if book.title and has_title_text(book.title) else fallback_title,
            title_source="epub" if book.title and has_title_text(book.title) else fallback_source,
            text=book.text,
            encoding=book.encoding,
            language=language or book.language,
            author=book.author,
            undecodable_bytes=book.undecodable_bytes,
            toc=book.toc,
            warnings=book.warnings,
        )
    found = _extract_text(data, name, fmt, declared_charset)
    if not found.text or found.text.isspace():
        raise SourceError(name, f"no text left after reading it as {fmt}", "empty-file")
    return SourceDocument(
        id=ident,
        source=source,
        raw_sha256=raw_sha256,
        title=found.title or fallback_title,
        title_source=found.title_source if found.title else fallback_source,
        text=found.text,
        encoding=found.decoded.encoding,
        language=language or found.language,
        author=found.author,
        undecodable_bytes=found.decoded.undecodable_bytes,
        warnings=found.decoded.warnings,
    )


@dataclass(frozen=True)
class _Extracted:
    """The text of an HTML, markdown or plain-text book and what it says about itself."""

    decoded: DecodedText
    text: str
    title: str | None
    title_source: str
    language: str | None  # a hint from the content (HTML lang, Gutenberg header)
    author: str | None


def _extract_text(data: bytes, name: str, fmt: Format, declared_charset: str | None) -> _Extracted:
    if fmt == "html":
        decoded = decode_markup(data, name, declared_charset)
        page = html_to_text(decoded.text)
        title = page.title if page.title and has_title_text(page.title) else None
        return _Extracted(decoded, page.text, title, "html", page.language, None)
    if declared_charset:
        decoded = decode_declared(data, declared_charset, name)
    else:
        decoded = decode_bytes(data, name)
    text, title = decoded.text, None
    if fmt == "text" and (headings := markdown_headings(text)) >= MARKDOWN_HEADINGS_IN_TEXT:
        # A `.txt` written as Markdown (`## Chapter 1`): its headings are read as such.
        fmt = "markdown"
        decoded.warnings.append(
            f"read as Markdown: {headings} lines are `#` headings (their `#` markers removed)"
        )
    if fmt == "markdown":
        text, title = markdown_to_text(text)
    source_of_title = "markdown"
    header = parse_pg_header(text)
    line_title, line_author = bracketed_title(text)
    aozora, aozora_author = aozora_title(text)
    if aozora:
        line_title, line_author = aozora, aozora_author
    if not title or not has_title_text(title):
        title, source_of_title = _title_in_text(text, header.title, line_title)
    author = line_author or header.author
    return _Extracted(decoded, text, title, source_of_title, header.language, author)


def _title_in_text(
    text: str, header_title: str | None, bracketed: str | None
) -> tuple[str | None, str]:
    """(title, where it came from) for plain text: PG header, then title lines in the text."""
    if header_title and has_title_text(header_title):
        return header_title, "gutenberg-header"
    title = bracketed or repeated_title(text) or title_line(text)
    return (title, "text") if title and has_title_text(title) else (None, "text")
