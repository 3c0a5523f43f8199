"""What the human loop reads from the work directory: samples, drafts and chapter texts.

- WORK/samples/<subset>.parquet (the build), read through `lengthwise.store`;
- WORK/drafts/samples.jsonl (`lengthwise.human_records.Draft`, read through the store)
  and WORK/drafts/report.json (the drafter's identity);
- WORK/corpus/books.jsonl: the original chapters.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from lengthwise.builders.joining import render_chapter
from lengthwise.errors import UserError
from lengthwise.human_records import ChapterDraft as ChapterDraft
from lengthwise.human_records import Draft
from lengthwise.records import Book, Chapter, Sample
from lengthwise.storage import read_json
from lengthwise.store import WorkStore, read_drafts_file
from lengthwise.workdir import WorkDir

# The drafts records live in the core; these names stay for the human loop's modules.
SampleDrafts = Draft


def read_drafts(path: Path) -> dict[str, Draft]:
    """A drafts JSONL file by sample id (the work dir's: `WorkStore.drafts`)."""
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no drafts found; run `lengthwise draft SPEC` first")
    return read_drafts_file(path)


def drafter_identity(work: WorkDir, drafts: Iterable[Draft] = ()) -> str:
    """A readable identity of the drafts, used as Label Studio's prediction model_version.

    From WORK/drafts/report.json ("<model> [<drafter key>]"); without a report, the
    distinct drafter:model pairs found in the drafts.
    """
    report_path = work.drafts.report
    if report_path.is_file():
        report = read_json(report_path)
        key, model = report.get("drafter_key"), report.get("model")
        if key:
            return f"{model} [{key}]" if model else str(key)
    pairs = sorted({f"{c.drafter}:{c.model}" for d in drafts for c in d.chapters})
    return "+".join(pairs) or "unknown drafter"


def subset_order(work: WorkDir, spec_subsets: Iterable[str] = ()) -> list[str]:
    """Subsets in the spec's order, then any other sample files found."""
    return WorkStore(work).subsets(spec_subsets)


def read_samples(work: WorkDir, subsets: Iterable[str]) -> list[Sample]:
    """All built samples of the given subsets, in file order."""
    return WorkStore(work).all_samples(subsets, annotated=False)


def read_books(work: WorkDir, wanted: set[str] | None = None) -> dict[str, Book]:
    """Books of WORK/corpus/books.jsonl (only `wanted` ids when given)."""
    return WorkStore(work).books(wanted)


@dataclass(frozen=True)
class SampleChapterText:
    index: int  # 0-based index in the book
    heading: str
    text: str  # as the sample shows it: heading line, then body


def sample_chapters(sample: Sample, books: dict[str, Book]) -> list[SampleChapterText]:
    """The original chapters of one sample, checked against the sample's hashes."""
    sample_id, book_id = sample.id, sample.book_id
    book = books.get(book_id)
    if book is None:
        raise UserError(f"sample {sample_id}: book {book_id!r} is not in the corpus")
    first, last = sample.first_chapter, sample.last_chapter
    hashes = sample.chapter_sha256
    chapters: list[Chapter] = book.chapters[first : last + 1]
    if len(chapters) != last - first + 1 or (hashes and [c.sha256 for c in chapters] != hashes):
        raise UserError(
            f"sample {sample_id}: chapters {first}-{last} differ from the corpus "
            "(stale samples); rerun `lengthwise build`"
        )
    return [SampleChapterText(c.index, c.heading, render_chapter(c)) for c in chapters]
