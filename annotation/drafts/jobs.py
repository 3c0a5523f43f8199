"""What to draft: the chapters of every selected sample, each distinct chapter once.

Reads WORK/samples/*.parquet and WORK/corpus/books.jsonl. A chapter shared by several
samples (overlapping runs, nested subsets) is one job, identified by the sha256 of its
text. Jobs are ordered by book id, then chapter index, so requests go out in reading
order and a book's chapters are drafted together.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lengthwise.builders.joining import render_chapter
from lengthwise.records import Book
from lengthwise.storage import canonical_hash
from lengthwise.workdir import WorkDir


@dataclass(frozen=True)
class ChapterJob:
    sha256: str  # sha256 of the chapter body, as in Chapter.sha256 and the samples
    book_id: str
    index: int  # 0-based chapter index in the book
    heading: str
    language: str
    text: str  # the chapter as samples show it: heading line, then body


@dataclass(frozen=True)
class SampleChapter:
    index: int
    heading: str
    sha256: str


@dataclass(frozen=True)
class SampleChapters:
    sample_id: str
    subset: str
    book_id: str
    chapters: tuple[SampleChapter, ...]


@dataclass(frozen=True)
class DraftInputs:
    jobs: list[ChapterJob]
    samples: list[SampleChapters]

    @property
    def fingerprint(self) -> str:
        """Changes when the samples or the chapters they hold change."""
        return canonical_hash([[s.sample_id, [c.sha256 for c in s.chapters]] for s in self.samples])


def load_draft_inputs(work: WorkDir) -> DraftInputs:
    """The samples of every subset and the distinct chapters they hold."""
    import pyarrow.parquet as pq

    sample_files = sorted(work.samples.glob("*.parquet"))
    if not sample_files:
        raise FileNotFoundError(
            f"{work.samples}: no samples found; run `lengthwise build SPEC` first"
        )
    if not work.books.is_file():
        raise FileNotFoundError(f"{work.books}: corpus missing; run `lengthwise build SPEC` first")
    rows_by_file = {path: pq.read_table(path).to_pylist() for path in sample_files}
    wanted = {str(row["book_id"]) for rows in rows_by_file.values() for row in rows}
    books = _read_books(work.books, wanted)

    jobs: dict[str, ChapterJob] = {}
    samples: list[SampleChapters] = []
    for path, rows in rows_by_file.items():
        for row in rows:
            samples.append(_sample_chapters(path, row, books, jobs))
    ordered = sorted(jobs.values(), key=lambda j: (j.book_id, j.index, j.sha256))
    return DraftInputs(jobs=ordered, samples=samples)


def _read_books(path: Path, wanted: set[str]) -> dict[str, Book]:
    books: dict[str, Book] = {}
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                if row.get("id") in wanted:
                    books[row["id"]] = Book.from_dict(row)
            except (json.JSONDecodeError, TypeError, KeyError) as exc:
                raise ValueError(f"{path}:{number}: not a valid book row: {exc}") from None
    return books


def _sample_chapters(
    path: Path, row: dict[str, Any], books: dict[str, Book], jobs: dict[str, ChapterJob]
) -> SampleChapters:
    where = f"{path}: sample {row.get('id')!r}"
    try:
        book_id = str(row["book_id"])
        first, last = int(row["first_chapter"]), int(row["last_chapter"])
        hashes = list(row["chapter_sha256"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"{where}: missing or invalid column {exc}") from None
    book = books.get(book_id)
    if book is None:
        raise ValueError(
            f"{where}: book {book_id!r} is not in the corpus; rerun `lengthwise build`"
        )
    if last >= len(book.chapters) or len(hashes) != last - first + 1:
        raise ValueError(f"{where}: chapter range {first}-{last} does not match the corpus")
    chapters: list[SampleChapter] = []
    for index, expected in zip(range(first, last + 1), hashes, strict=True):
        chapter = book.chapters[index]
        if chapter.sha256 != expected:
            raise ValueError(
                f"{where}: chapter {index} differs from {book_id} in corpus/books.jsonl "
                "(the samples are stale); rerun `lengthwise build`"
            )
        chapters.append(SampleChapter(index=index, heading=chapter.heading, sha256=chapter.sha256))
        if chapter.sha256 not in jobs:
            jobs[chapter.sha256] = ChapterJob(
                sha256=chapter.sha256,
                book_id=book_id,
                index=index,
                heading=chapter.heading,
                language=book.language,
                text=render_chapter(chapter),
            )
    return SampleChapters(
        sample_id=str(row["id"]),
        subset=str(row.get("subset", path.stem)),
        book_id=book_id,
        chapters=tuple(chapters),
    )
