"""Turning selected chapter runs into samples, exactly as the evaluator will see them."""

from __future__ import annotations

from collections.abc import Mapping

from lengthwise.builders.joining import sample_text
from lengthwise.records import Book, Sample
from lengthwise.spec import SubsetSpec


def sample_id(book_id: str, first: int, last: int) -> str:
    """Stable id from the book and the 0-based inclusive chapter range."""
    return f"{book_id}:{first:04d}-{last:04d}"


def sample_row(
    book: Book,
    first: int,
    last: int,
    subset: SubsetSpec,
    token_counts: Mapping[str, int],
    primary: str,
    parent_id: str | None = None,
) -> Sample:
    """The sample of chapters first..last (0-based, inclusive) of `book` in `subset`."""
    chapters = book.chapters[first : last + 1]
    return Sample(
        id=sample_id(book.id, first, last),
        subset=subset.name,
        book_id=book.id,
        book_title=book.title,
        language=book.language,
        first_chapter=first,
        last_chapter=last,
        chapter_titles=[(c.heading or c.title) for c in chapters],
        chapter_sha256=[c.sha256 for c in chapters],
        text=sample_text(book, first, last),
        tokens=int(token_counts[primary]),
        tokenizer=primary,
        token_counts={k: int(v) for k, v in token_counts.items()},
        target=subset.target,
        lower=subset.lower,
        upper=subset.upper,
        parent_id=parent_id,
        source=book.source,
    )
