"""How `lengthwise build` uses duplicates and numbering gaps (kept out of build.py)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from lengthwise.builders.corpus import BookReport
from lengthwise.builders.duplicates.findings_cache import cached_duplicate_works
from lengthwise.builders.duplicates.overlap import CopyMap, select_avoiding_copies
from lengthwise.builders.duplicates.repeated_chapters import RepeatedChapter
from lengthwise.builders.duplicates.stage import (
    DuplicateFindings,
    noise_per_char,
)
from lengthwise.builders.sampling import (
    BookLengths,
    CandidateSet,
    Selection,
    select_nested,
    select_samples,
)
from lengthwise.builders.sampling.number_gaps import numbering_breaks
from lengthwise.builders.sampling.runs import DroppedRunJson
from lengthwise.executors import Executor
from lengthwise.records import Book
from lengthwise.reports import StageReport
from lengthwise.spec import DuplicatesConfig, Spec


def duplicates_stage(
    config: DuplicatesConfig,
    books: list[Book],
    reports: Sequence[BookReport],
    repeated: Sequence[RepeatedChapter],
    cache_dir: Path,
    runner: Executor | None = None,
) -> tuple[list[Book], DuplicateFindings, StageReport]:
    """Find copies of one work; with ``keep = "one"`` only the kept copy goes on.

    Signatures not cached yet are computed on ``runner`` (default: this process).
    """
    stage = StageReport("duplicates")
    by_id = {r.id: r for r in reports}
    noise = {
        b.id: noise_per_char(
            by_id[b.id].undecodable_bytes if b.id in by_id else 0,
            by_id[b.id].removed if b.id in by_id else {},
            sum(len(c.text) for c in b.chapters),
        )
        for b in books
    }
    findings = cached_duplicate_works(books, config, cache_dir, noise, repeated, runner)
    for chapter in findings.repeated_chapters:
        stage.warn(
            f"{chapter.book_id}: chapter #{chapter.index} {chapter.heading!r} repeats "
            f"#{chapter.repeats_index} (similarity {chapter.similarity:.2f}); later copy dropped"
        )
    dropped = findings.dropped
    for book in books:
        if book.id in dropped:
            stage.drop("duplicate-work", f"{book.id}: {dropped[book.id]}")
        else:
            stage.keep()
    return [b for b in books if b.id not in dropped], findings, stage.finish()


def sampling_lengths(
    books: Sequence[Book], primary: str, field: str, allow_number_gaps: bool
) -> list[BookLengths]:
    """Chapter lengths per book, with the numbering gaps and restarts no run may span
    (unless allowed)."""
    return [
        BookLengths(
            b.id,
            [getattr(c, field)[primary] for c in b.chapters],
            () if allow_number_gaps else numbering_breaks(b.chapters),
        )
        for b in books
    ]


def select_subsets(
    candidate_sets: dict[str, CandidateSet], spec: Spec, duplicates: DuplicateFindings
) -> tuple[dict[str, Selection], dict[str, list[DroppedRunJson]]]:
    """Selection per subset; with kept copies, no two samples of one work overlap."""

    def select(sets: dict[str, CandidateSet]) -> dict[str, Selection]:
        if spec.sampling.nested:
            return select_nested(sets, spec.seed, spec.sampling.q1_min_ratio)
        return {
            name: select_samples(cs.runs, cs.subset, spec.seed, spec.sampling.q1_min_ratio)
            for name, cs in sets.items()
        }

    copies = CopyMap(duplicates.clusters if duplicates.keep == "all" else [])
    if not copies:
        return select(candidate_sets), {name: [] for name in candidate_sets}
    return select_avoiding_copies(candidate_sets, select, copies)
