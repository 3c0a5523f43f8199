"""Chapters printed twice inside one book: keep the first copy, report the others.

A chapter repeats an earlier one when its text hash is equal, or when the estimated Jaccard
similarity of their shingle sets reaches the chapter threshold (the same chapter with a few
characters changed). Chapters too short to judge (``MIN_CHAPTER_SHINGLES``) are compared
by hash only. The first copy is kept because it sits where the reader met the chapter;
later chapters move up one index each, so sample chapter ranges stay contiguous.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from lengthwise.builders.duplicates.signatures import MIN_CHAPTER_SHINGLES, BookSignatures
from lengthwise.json_records import JsonRecord
from lengthwise.records import Book


@dataclass(frozen=True)
class RepeatedChapter(JsonRecord):
    """A dropped chapter: where it was, and the kept chapter it repeats."""

    book_id: str
    index: int  # position before dropping
    heading: str
    repeats_index: int
    repeats_heading: str
    similarity: float


def find_repeats(book: Book, signatures: BookSignatures, threshold: float) -> list[RepeatedChapter]:
    """Each chapter that repeats an earlier kept chapter, in reading order."""
    chapters = book.chapters
    judged = signatures.chapter_sizes >= MIN_CHAPTER_SHINGLES
    values = signatures.chapters
    first_by_hash: dict[str, int] = {}
    kept: list[int] = []
    repeats: list[RepeatedChapter] = []
    for i, chapter in enumerate(chapters):
        original, similarity = first_by_hash.get(chapter.sha256), 1.0
        if original is None and judged[i] and kept:
            candidates = [k for k in kept if judged[k]]
            if candidates:
                shares = (values[candidates] == values[i]).mean(axis=1)
                best = int(np.argmax(shares))
                if shares[best] >= threshold:
                    original, similarity = candidates[best], float(shares[best])
        if original is None:
            first_by_hash.setdefault(chapter.sha256, i)
            kept.append(i)
            continue
        repeats.append(
            RepeatedChapter(
                book.id,
                i,
                chapter.heading,
                original,
                chapters[original].heading,
                round(similarity, 3),
            )
        )
    return repeats


def drop_repeats(book: Book, repeats: list[RepeatedChapter]) -> Book:
    """The book without the repeated chapters, indices renumbered to positions."""
    if not repeats:
        return book
    dropped = {r.index for r in repeats}
    kept = [c for i, c in enumerate(book.chapters) if i not in dropped]
    return replace(book, chapters=[replace(c, index=i) for i, c in enumerate(kept)])


def kept_rows(book: Book, repeats: list[RepeatedChapter]) -> list[int]:
    dropped = {r.index for r in repeats}
    return [i for i in range(len(book.chapters)) if i not in dropped]
