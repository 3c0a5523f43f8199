"""What to draft: the chapters of every selected sample, each distinct chapter once.

Reads WORK/samples/*.parquet and WORK/corpus/books.jsonl through the work store. A
chapter shared by several samples (overlapping runs, nested subsets) is one job,
identified by the sha256 of its text. Jobs are ordered by book id, then chapter index,
so requests go out in reading order and a book's chapters are drafted together.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from lengthwise.builders.joining import render_chapter
from lengthwise.errors import UserError
from lengthwise.records import Book, Sample
from lengthwise.storage import canonical_hash
from lengthwise.store import WorkStore
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
    store = WorkStore(work)
    subsets = store.subsets()
    if not subsets:
        raise FileNotFoundError(
            f"{work.samples}: no samples found; run `lengthwise build SPEC` first"
        )
    samples_by_subset = {subset: store.samples(subset, annotated=False) for subset in subsets}
    wanted = {s.book_id for samples in samples_by_subset.values() for s in samples}
    books = store.books(wanted)

    jobs: dict[str, ChapterJob] = {}
    found: list[SampleChapters] = []
    for subset, samples in samples_by_subset.items():
        where = work.subset_samples(subset)
        for sample in samples:
            found.append(_sample_chapters(where, sample, books, jobs))
    ordered = sorted(jobs.values(), key=lambda j: (j.book_id, j.index, j.sha256))
    return DraftInputs(jobs=ordered, samples=found)


def _sample_chapters(
    path: Path, sample: Sample, books: dict[str, Book], jobs: dict[str, ChapterJob]
) -> SampleChapters:
    where = f"{path}: sample {sample.id!r}"
    book_id, first, last = sample.book_id, sample.first_chapter, sample.last_chapter
    hashes = sample.chapter_sha256
    book = books.get(book_id)
    if book is None:
        raise UserError(f"{where}: book {book_id!r} is not in the corpus; rerun `lengthwise build`")
    if last >= len(book.chapters) or len(hashes) != last - first + 1:
        raise UserError(f"{where}: chapter range {first}-{last} does not match the corpus")
    chapters: list[SampleChapter] = []
    for index, expected in zip(range(first, last + 1), hashes, strict=True):
        chapter = book.chapters[index]
        if chapter.sha256 != expected:
            raise UserError(
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
        sample_id=sample.id,
        subset=sample.subset,
        book_id=book_id,
        chapters=tuple(chapters),
    )
