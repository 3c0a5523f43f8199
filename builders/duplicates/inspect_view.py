"""`lengthwise inspect`: duplicate works and repeated chapters per book, with default settings."""

from __future__ import annotations

from collections.abc import Sequence

from typing_extensions import TypedDict

from lengthwise.builders.corpus import BookReport
from lengthwise.builders.duplicates.repeated_chapters import RepeatedChapter
from lengthwise.builders.duplicates.stage import (
    DuplicateOfJson,
    find_duplicate_works,
    noise_per_char,
    remove_repeated_chapters,
)
from lengthwise.records import Book
from lengthwise.spec import DuplicatesConfig


class DuplicateEntry(TypedDict):
    duplicate_of: DuplicateOfJson | None
    repeated_chapters: list[RepeatedChapter]  # plain_json makes them JSON objects


def duplicate_entries(
    books: Sequence[Book], reports: Sequence[BookReport]
) -> dict[str, DuplicateEntry]:
    """Book id -> ``{"duplicate_of": ..., "repeated_chapters": [...]}`` for inspect's JSON.

    ``duplicate_of`` is null for a book that is no copy of another (or is the kept copy),
    else the cluster, the kept book and the similarity figures; nothing is cached or dropped.
    """
    config = DuplicatesConfig()
    deduped, repeated = remove_repeated_chapters(books, config, None)
    by_id = {r.id: r for r in reports}
    noise = {
        b.id: noise_per_char(
            by_id[b.id].undecodable_bytes,
            by_id[b.id].removed,
            sum(len(c.text) for c in b.chapters),
        )
        for b in deduped
        if b.id in by_id
    }
    findings = find_duplicate_works(deduped, config, None, noise, repeated)
    return {
        b.id: {
            "duplicate_of": findings.duplicate_of(b.id),
            "repeated_chapters": [r for r in repeated if r.book_id == b.id],
        }
        for b in books
    }
