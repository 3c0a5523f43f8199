"""What the human loop reads from the work directory: samples, drafts and chapter texts.

- WORK/samples/<subset>.parquet (the build), read through `lengthwise.store`;
- WORK/drafts/samples.jsonl: per sample, its chapters in order with the draft shown to
  annotators (``{"id", "subset", "book_id", "chapters": [{"chapter_index", "heading",
  "draft", "drafter", "model", ...}]}``) and WORK/drafts/report.json (the drafter's
  identity);
- WORK/corpus/books.jsonl: the original chapters.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lengthwise.builders.joining import render_chapter
from lengthwise.records import Book, Chapter, Sample
from lengthwise.storage import canonical_hash, read_json, read_jsonl
from lengthwise.store import WorkStore
from lengthwise.workdir import WorkDir


@dataclass(frozen=True)
class ChapterDraft:
    chapter_index: int  # 0-based index of the chapter in its book
    heading: str
    text: str
    drafter: str  # "llm" or "extractive"
    model: str = ""
    fallback_reason: str | None = None  # why an extractive draft stands in for the LLM's


@dataclass(frozen=True)
class SampleDrafts:
    sample_id: str
    chapters: tuple[ChapterDraft, ...]

    @property
    def texts(self) -> list[str]:
        return [c.text for c in self.chapters]

    @property
    def merged(self) -> str:
        """The drafts in chapter order, one paragraph each: the annotator's starting point."""
        return "\n\n".join(c.text.strip() for c in self.chapters if c.text.strip())

    @property
    def sha256(self) -> str:
        """Changes whenever any chapter's draft text, heading or drafter changes."""
        return canonical_hash(
            [[c.chapter_index, c.heading, c.text, c.drafter, c.model] for c in self.chapters]
        )


def read_drafts(path: Path) -> dict[str, SampleDrafts]:
    """WORK/drafts/samples.jsonl by sample id; errors name the file, line and key."""
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no drafts found; run `lengthwise draft SPEC` first")
    drafts: dict[str, SampleDrafts] = {}
    for number, row in enumerate(read_jsonl(path), start=1):
        where = f"{path}:{number}"
        try:
            sample_id = str(row["id"])
            chapters = tuple(_chapter_draft(c) for c in row["chapters"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"{where}: not a drafts row (missing or invalid {exc})") from None
        drafts[sample_id] = SampleDrafts(sample_id, chapters)
    return drafts


def _chapter_draft(row: dict[str, Any]) -> ChapterDraft:
    text = row["draft"] if "draft" in row else row["text"]
    return ChapterDraft(
        chapter_index=int(row["chapter_index"]),
        heading=str(row.get("heading") or ""),
        text=str(text or ""),
        drafter=str(row.get("drafter") or "unknown"),
        model=str(row.get("model") or ""),
        fallback_reason=row.get("fallback_reason"),
    )


def drafter_identity(work: WorkDir, drafts: Iterable[SampleDrafts] = ()) -> str:
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
        raise ValueError(f"sample {sample_id}: book {book_id!r} is not in the corpus")
    first, last = sample.first_chapter, sample.last_chapter
    hashes = sample.chapter_sha256
    chapters: list[Chapter] = book.chapters[first : last + 1]
    if len(chapters) != last - first + 1 or (hashes and [c.sha256 for c in chapters] != hashes):
        raise ValueError(
            f"sample {sample_id}: chapters {first}-{last} differ from the corpus "
            "(stale samples); rerun `lengthwise build`"
        )
    return [SampleChapterText(c.index, c.heading, render_chapter(c)) for c in chapters]
