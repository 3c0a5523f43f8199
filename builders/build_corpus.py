"""The build's corpus stage: documents -> books (clean, chapters, token counts), cached.

WORK/corpus/books.jsonl, books_report.json and repeated_chapters.json are reused when the
documents (ids, raw hashes), settings and tokenizers are the same, so a rebuild that
changes only sampling settings neither needs the documents' text nor processes a book.
Rebuilds read the books from a marshal copy of books.jsonl (builders/build_snapshot.py).
Each book's non-whitespace character count (for the build report's encoding efficiency)
is cached beside them in WORK/cache/book_characters.json for the same fingerprint.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from lengthwise.builders.build_report import book_characters
from lengthwise.builders.build_snapshot import read_snapshot, snapshot_key, write_snapshot
from lengthwise.builders.corpus import BookReport, CorpusSettings, process_corpus
from lengthwise.builders.corpus_settings import read_book_reports
from lengthwise.builders.duplicates import RepeatedChapter, remove_repeated_chapters
from lengthwise.builders.sources import require_kept
from lengthwise.errors import UserError
from lengthwise.executors import make_executor
from lengthwise.progress import ProgressStep
from lengthwise.records import Book, SourceDocument
from lengthwise.reports import StageReport
from lengthwise.spec import Spec
from lengthwise.stage_state import CompletionRecord, is_complete
from lengthwise.storage import (
    atomic_write_json,
    atomic_write_jsonl,
    canonical_hash,
    read_json,
    read_jsonl,
)
from lengthwise.tokenizers import tokenizer_cache_key
from lengthwise.workdir import WorkDir


@dataclass
class CorpusResult:
    books: list[Book]
    reports: list[BookReport]
    stage: StageReport  # finished
    repeated: list[RepeatedChapter]
    characters: dict[str, int]  # book id -> non-whitespace characters of its rendered chapters


def document_identities(docs: list[SourceDocument]) -> list[tuple[str, str, str]]:
    return [(d.id, d.raw_sha256, d.source) for d in docs]


def corpus_stage(
    spec: Spec,
    work: WorkDir,
    docs: list[SourceDocument],
    step: ProgressStep,
    workers: int | None,
    with_text: Callable[[], list[SourceDocument]],
) -> CorpusResult:
    """Books and reports of `docs`: the cached outputs when current, else processed from
    `with_text()` (the same documents with their text; `docs` may be headers only)."""
    settings = CorpusSettings(spec.language, spec.cleaning, spec.chapters)
    fingerprint = canonical_hash(
        {
            "settings": settings.fingerprint(),
            "tokenizers": [tokenizer_cache_key(t) for t in spec.tokenizers.all],
            "documents": [(d.id, d.raw_sha256, d.source, d.language) for d in docs],
            "duplicates": spec.duplicates.model_dump(mode="json"),
        }
    )
    previous = _read_corpus_outputs(work, fingerprint)
    if previous is not None:
        # Same documents, settings and tokenizers: the stage's own outputs are current.
        books, reports, repeated = previous
    else:
        books, reports = [], []
        for book, book_report in process_corpus(
            with_text(),
            settings,
            spec.tokenizers.all,
            cache_dir=work.cache,
            workers=workers,
            progress=step,
            executor=spec.executor,
        ):
            reports.append(book_report)
            if book is not None:
                books.append(book)
        # books.jsonl holds the chapters samples index into: repeated chapters leave here.
        runner = make_executor(spec.executor, workers)
        books, repeated = remove_repeated_chapters(books, spec.duplicates, work.cache, runner)
    stage = _stage_report(reports)
    # Refused before anything is written: exit 2 leaves no books.jsonl behind.
    require_kept(stage, "no book left after cleaning and chapter detection")
    _refuse_duplicate_ids(books)
    if previous is None:
        rows = [b.to_dict() for b in books]
        atomic_write_jsonl(work.books, rows)
        atomic_write_json(work.books_report, [r.to_json() for r in reports])
        atomic_write_json(work.repeated_chapters, [r.to_json() for r in repeated])
        # Written last: marks the three files complete (and verified) for these inputs.
        record = CompletionRecord.write(work.root, "corpus", fingerprint, _corpus_outputs(work))
        write_snapshot(work.books_snapshot, _snapshot_key(work, record), rows)
    characters = _cached_characters(work.book_characters, fingerprint, books)
    return CorpusResult(books, reports, stage, repeated, characters)


def _stage_report(reports: list[BookReport]) -> StageReport:
    stage = StageReport("corpus", max_examples=None)
    for book_report in reports:
        if book_report.excluded is not None:
            stage.drop("book-excluded", f"{book_report.path}: {book_report.excluded}")
            continue
        for warning in book_report.warnings:
            stage.warn(f"{book_report.path}: {warning}")
        stage.keep()
    return stage.finish()


def _refuse_duplicate_ids(books: list[Book]) -> None:
    ids = [b.id for b in books]
    duplicate_ids = sorted({i for i in ids if ids.count(i) > 1})
    if duplicate_ids:
        raise UserError(
            f"two sources produced the same book id(s) {duplicate_ids}; rename one of the files"
        )


def _cached_characters(path: Path, fingerprint: str, books: list[Book]) -> dict[str, int]:
    """Per-book character counts for the corpus `fingerprint`: from `path` when it holds
    this fingerprint's counts for every book, else counted (and `path` rewritten)."""
    try:
        cached = json.loads(path.read_text(encoding="utf-8"))
        if cached["corpus"] == fingerprint and {b.id for b in books} <= cached["books"].keys():
            return {b.id: int(cached["books"][b.id]) for b in books}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass  # a cache only: count again
    counted = {b.id: book_characters(b) for b in books}
    atomic_write_json(path, {"corpus": fingerprint, "books": counted})
    return counted


def _snapshot_key(work: WorkDir, record: CompletionRecord) -> str:
    """The snapshot's key: this corpus fingerprint and books.jsonl's recorded hash."""
    books = str(work.books.relative_to(work.root))
    return snapshot_key(record.fingerprint, record.outputs.get(books, ""))


def _corpus_outputs(work: WorkDir) -> list[Path]:
    return [work.books, work.books_report, work.repeated_chapters]


def _read_corpus_outputs(
    work: WorkDir, fingerprint: str
) -> tuple[list[Book], list[BookReport], list[RepeatedChapter]] | None:
    if not is_complete(work.root, "corpus", fingerprint, _corpus_outputs(work)):
        return None
    record = CompletionRecord.load(work.root, "corpus")
    key = _snapshot_key(work, record) if record is not None else None
    try:
        rows = read_snapshot(work.books_snapshot, key) if key is not None else None
        if rows is None:
            rows = list(read_jsonl(work.books))
            if key is not None:
                with contextlib.suppress(OSError):  # a faster copy only
                    write_snapshot(work.books_snapshot, key, rows)
        books = [Book.from_dict(row) for row in rows]
        reports = read_book_reports(work.books_report)
        repeated = [RepeatedChapter(**row) for row in read_json(work.repeated_chapters)]
    except (OSError, ValueError, TypeError):  # InputFileError is a ValueError
        return None  # missing or stale outputs: recompute
    return books, reports, repeated
