"""Project Gutenberg books by id, from gutenberg.org or any mirror with the same layout.

Each book is tried at the mirror's cache path (``cache/epub/{id}/pg{id}.txt``, current
UTF-8 plain text) and then the older ``files/{id}/{id}-0.txt``. Title, author and language
come from the PG header; the header and licence footer stay in the text, because removing
them is the cleaning stage's job. Fetching goes through `Crawler` (robots.txt, rate limit,
cache), so please point `mirror` at a mirror for bulk work, as Project Gutenberg asks.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from lengthwise.builders.sources.crawl import Crawler
from lengthwise.builders.sources.documents import build_document
from lengthwise.builders.sources.errors import (
    FetchError,
    ReasonKey,
    SourceError,
    SourceFailure,
)
from lengthwise.builders.sources.urls import parse_content_type
from lengthwise.records import SourceDocument, slugify

LICENSE_NOTE = "Project Gutenberg, public domain in the USA"


def gutenberg_urls(book_id: int, mirror: str) -> list[str]:
    """Candidate plain-text URLs of one book, best first."""
    base = mirror.rstrip("/")
    return [
        f"{base}/cache/epub/{book_id}/pg{book_id}.txt",
        f"{base}/files/{book_id}/{book_id}-0.txt",
    ]


def read_gutenberg(
    ids: Iterable[int], mirror: str, crawler: Crawler, language: str | None = None
) -> Iterator[SourceDocument | SourceFailure]:
    """One document per id (id ``pg{id}-<title slug>``, source ``gutenberg:{id}``)."""
    for book_id in ids:
        source = f"gutenberg:{book_id}"
        if book_id <= 0:
            yield SourceFailure(source, "Gutenberg ids are positive integers", "fetch-failed")
            continue
        problems: list[str] = []
        keys: list[ReasonKey] = []
        for url in gutenberg_urls(book_id, mirror):
            try:
                page = crawler.fetch(url)
            except FetchError as error:
                problems.append(f"{url}: {error.reason}")
                keys.append(error.key)
                continue
            fallback_title = f"Project Gutenberg #{book_id}"
            try:
                document = build_document(
                    page.body,
                    name=url,
                    source=source,
                    doc_id=f"pg{book_id}",
                    fallback_title=fallback_title,
                    fallback_source="gutenberg-id",
                    fmt="text",
                    language=language,
                    declared_charset=parse_content_type(page.content_type)[1],
                )
            except SourceError as error:
                problems.append(f"{url}: {error.reason}")
                keys.append(error.key)
                continue
            if document.title != fallback_title:
                document.id = f"pg{book_id}-{slugify(document.title)}"
            document.license_note = LICENSE_NOTE
            yield document
            break
        else:
            # Report the most specific shared reason, e.g. both URLs missing -> "not-found".
            key: ReasonKey = keys[0] if len(set(keys)) == 1 else "fetch-failed"
            yield SourceFailure(source, "; ".join(problems), key)
