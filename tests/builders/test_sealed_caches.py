"""Content caches that a rebuild trusts are sealed with their sha256: an entry edited
after it was written (a poisoned books snapshot, a swapped duplicate-findings pickle) is
discarded and computed again instead of reaching samples."""

from __future__ import annotations

import dataclasses
import io
import logging
import pickle
from pathlib import Path

import numpy as np
import pytest

from lengthwise.builders.build_snapshot import read_snapshot, write_snapshot
from lengthwise.builders.duplicates.findings_cache import cached_duplicate_works
from lengthwise.builders.duplicates.stage import DuplicateFindings
from lengthwise.records import Book, Chapter
from lengthwise.sealed import read_sealed
from lengthwise.spec import DuplicatesConfig


def test_an_edited_books_snapshot_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "books.marshal"
    rows = [{"id": "book", "text": "the chapter as cleaned"}]
    write_snapshot(path, "key", rows)
    assert read_snapshot(path, "key") == rows
    data = path.read_bytes()
    path.write_bytes(data.replace(b"as cleaned", b"as POISONS"))  # same length, same key
    assert read_snapshot(path, "key") is None


def _book(book_id: str, text: str) -> Book:
    words = [f"{text} word{n} line{n % 7} of the sea" for n in range(400)]
    chapters = [
        Chapter(book_id, i, f"CHAPTER {i + 1}", i + 1, "", " ".join(words[i * 100 :]))
        for i in range(3)
    ]
    return Book(book_id, book_id, "en", book_id, book_id * 8, "utf-8", chapters)


def test_a_swapped_duplicate_findings_file_is_not_unpickled(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    books = [_book("a", "One tale of a ship"), _book("b", "One tale of a ship")]
    config = DuplicatesConfig()
    first = cached_duplicate_works(books, config, tmp_path, {}, [])
    [path] = (tmp_path / "duplicates").glob("findings-*")
    assert first.clusters  # the two copies are one work
    # Another findings object written in its place, the seal line kept: what was stored
    # under this key no longer holds.
    forged = dataclasses.replace(first, clusters=[])
    head = path.read_bytes().partition(b"\n")[0]
    path.write_bytes(head + b"\n" + pickle.dumps(forged))
    assert read_sealed(path, "test") is None
    with caplog.at_level(logging.WARNING):
        again = cached_duplicate_works(books, config, tmp_path, {}, [])
    assert isinstance(again, DuplicateFindings)
    assert again.clusters and again.dropped == first.dropped
    assert "does not match the sha256" in caplog.text


def test_an_edited_signature_file_is_hashed_again(tmp_path: Path) -> None:
    from lengthwise.builders.duplicates.signatures import signatures_for

    books = [_book("a", "One tale of a ship")]
    [first] = signatures_for(books, 5, 128, tmp_path)
    [path] = tmp_path.glob("*.npz")
    # Other signatures written in its place (whatever seal line there is, kept).
    buffer = io.BytesIO()
    np.savez(
        buffer,
        chapters=first.chapters + 1,
        chapter_sizes=first.chapter_sizes,
        book=first.book + 1,
        book_size=np.int64(first.book_size),
    )
    data = path.read_bytes()
    head = data.partition(b"\n")[0] + b"\n" if data.startswith(b'{"sha256"') else b""
    path.write_bytes(head + buffer.getvalue())
    [again] = signatures_for(books, 5, 128, tmp_path)
    assert (again.chapters == first.chapters).all() and (again.book == first.book).all()
