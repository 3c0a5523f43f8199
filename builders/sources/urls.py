"""Web pages and files by URL -> `SourceDocument`s, fetched through the polite `Crawler`.

The format follows the Content-Type (HTML, XHTML, plain text, Markdown, EPUB); a missing or
generic type falls back to the URL's extension, then to a look at the body. A charset in the
Content-Type header is used when present (with detection as the fallback if it does not fit);
otherwise HTML's own declaration, otherwise detection. Header parsing uses the standard
library's `email.message` (RFC 2045 parameters, quoting included).
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Iterator
from email.message import Message
from urllib.parse import unquote, urlsplit

from lengthwise.builders.sources.crawl import Crawler
from lengthwise.builders.sources.documents import FORMAT_BY_EXTENSION, Format, build_document
from lengthwise.builders.sources.errors import FetchError, SourceError, SourceFailure
from lengthwise.records import SourceDocument, slugify

_FORMAT_BY_MEDIA_TYPE: dict[str, Format] = {
    "text/html": "html",
    "application/xhtml+xml": "html",
    "text/markdown": "markdown",
    "text/x-markdown": "markdown",
    "application/epub+zip": "epub",
    "text/plain": "text",
}
_GENERIC_MEDIA_TYPES = frozenset({"", "application/octet-stream", "binary/octet-stream"})


def read_urls(
    urls: Iterable[str], crawler: Crawler, language: str | None = None
) -> Iterator[SourceDocument | SourceFailure]:
    """Fetch and read each URL in order; failures are yielded, never raised."""
    for url in urls:
        try:
            page = crawler.fetch(url)
        except FetchError as error:
            yield SourceFailure.from_error(error)
            continue
        media_type, charset = parse_content_type(page.content_type)
        fmt = _format_of(media_type, page.final_url, page.body)
        if fmt is None:
            yield SourceFailure(
                url, f"unsupported content type {media_type}", "unsupported-content-type"
            )
            continue
        stem = url_stem(page.final_url)
        try:
            document = build_document(
                page.body,
                name=url,
                source=url,
                doc_id=stem,
                fallback_title=stem,
                fallback_source="url",
                fmt=fmt,
                language=language,
                declared_charset=charset,
            )
        except SourceError as error:
            yield SourceFailure.from_error(error)
            continue
        if document.title != stem:
            # A page title names a book better than a URL segment such as "index".
            document.id = slugify(document.title, fallback=document.id)
        yield document


def parse_content_type(header: str) -> tuple[str, str | None]:
    """('text/html', 'gbk') from 'text/html; charset="GBK"'; ('', None) when absent."""
    if not header.strip():
        return "", None
    message = Message()
    message["content-type"] = header
    charset = message.get_param("charset")
    return message.get_content_type(), charset.strip() if isinstance(charset, str) else None


def url_stem(url: str) -> str:
    """The last path segment without extension, else the host: an id/title of last resort."""
    parts = urlsplit(url)
    name = posixpath.basename(unquote(parts.path).rstrip("/"))
    stem = posixpath.splitext(name)[0]
    return stem or parts.hostname or "page"


def _format_of(media_type: str, url: str, body: bytes) -> Format | None:
    known = _FORMAT_BY_MEDIA_TYPE.get(media_type)
    if known:
        return known
    if media_type in _GENERIC_MEDIA_TYPES or media_type.startswith("text/"):
        extension = posixpath.splitext(urlsplit(url).path)[1].lower()
        if extension in FORMAT_BY_EXTENSION:
            return FORMAT_BY_EXTENSION[extension]
        head = body[:512].lstrip().lower()
        if head.startswith((b"<!doctype html", b"<html")):
            return "html"
        return "text"
    return None
