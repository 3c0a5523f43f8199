"""`lengthwise annotate demo-references`: synthetic reference summaries for the demo only.

The synthetic demo corpus knows what each chapter narrates (its synopses sidecar,
lengthwise.builders.demo_synopses). For every selected sample this merges its chapters'
synopses into one summary within the subset's limit, as an annotator merges drafts,
and hands them to the review stage exactly as pulled human annotations are handed:
records in WORK/annotations/annotations.jsonl (same quality checks), then `finalize`.

Every record says ``origin: "synthetic reference (demo)"`` (and is the annotator), the
annotated samples carry ``reference_origin``, so the release card and the evaluation
report say the references are synthetic. A work dir whose corpus is not the demo's is
refused before anything is written (`synopses_for_demo_books`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from lengthwise.annotation.review.finalize import (
    AnnotationPaths,
    FinalizeResult,
    finalize,
    limit_for,
    quality_settings,
)
from lengthwise.annotation.review.inputs import read_samples, subset_order
from lengthwise.annotation.review.measure import count_units, is_chinese
from lengthwise.annotation.review.quality import check_summary
from lengthwise.annotation.review.records import ORIGIN_HUMAN, AnnotationRecord
from lengthwise.builders.demo_synopses import SYNTHETIC_LABEL, synopses_for_demo_books
from lengthwise.errors import UserError
from lengthwise.records import Sample
from lengthwise.spec import Spec
from lengthwise.store import WorkStore
from lengthwise.workdir import WorkDir

UNIQUE_PREFIX = "synthetic-demo:"


@dataclass
class DemoReferencesResult:
    written: int  # records new or changed in this run
    unchanged: int
    finalized: FinalizeResult


def spread(sentences: Sequence[str], count: int) -> list[str]:
    """`count` sentences spread evenly over the chapter (all when it has no more)."""
    if count >= len(sentences):
        return list(sentences)
    return [sentences[(2 * i + 1) * len(sentences) // (2 * count)] for i in range(count)]


def merge_synopses(chapters: Sequence[Sequence[str]], language: str, limit: int) -> str:
    """The chapters' synopses in order, as many sentences per chapter as fit the limit."""
    joiner = "" if is_chinese(language) else " "
    most = max((len(c) for c in chapters), default=0)
    text = ""
    for per_chapter in range(most, 0, -1):
        text = joiner.join(s for chapter in chapters for s in spread(chapter, per_chapter))
        if count_units(text, language) <= limit:
            return text
    return text  # one sentence per chapter is still too long: the over_limit flag says so


def _chapter_synopses(
    sample: Sample,
    numbers: Mapping[str, list[int | None]],
    synopses: Mapping[str, Mapping[int, list[str]]],
) -> list[list[str]]:
    book_id = sample.book_id
    found = []
    for index in range(sample.first_chapter, sample.last_chapter + 1):
        number = numbers[book_id][index] if index < len(numbers[book_id]) else None
        if number is None or number not in synopses[book_id]:
            raise UserError(
                f"sample {sample.id}: chapter {index} of {book_id} has no printed number "
                "known to the demo generator; rebuild the demo (`lengthwise build`)"
            )
        found.append(synopses[book_id][number])
    return found


def demo_references(spec: Spec, work_dir: Path) -> DemoReferencesResult:
    """Write synthetic references for every sample of the demo work dir, then finalize."""
    work = WorkDir(work_dir)
    store = WorkStore(work)
    books = list(store.books().values())
    synopses = synopses_for_demo_books(books)  # refuses any corpus but the demo's
    numbers = {b.id: [c.number for c in b.chapters] for b in books}
    samples = read_samples(work, subset_order(work, [s.name for s in spec.subsets]))
    drafts = store.drafts(required=False)
    paths = AnnotationPaths(work)
    stored = store.annotations()
    humans = [r for r in stored if r.origin == ORIGIN_HUMAN]
    if humans:
        raise UserError(
            f"{paths.annotations} holds {len(humans)} human annotations; synthetic references "
            "are for the untouched demo only and never mix with human work"
        )
    previous = {r.unique_id: r for r in stored}
    now = datetime.now(UTC).isoformat(timespec="seconds")
    records, unchanged = [], 0
    for number, sample in enumerate(samples, start=1):
        record = _record(spec, sample, number, _chapter_synopses(sample, numbers, synopses))
        record.drafts_sha256 = drafts[record.sample_id].sha256 if record.sample_id in drafts else ""
        quality = check_summary(
            record.summary,
            drafts=drafts[record.sample_id].texts if record.sample_id in drafts else [],
            language=record.language,
            limit=record.limit,
            settings=quality_settings(spec),
        )
        record.flags, record.units = list(quality.flags), quality.units
        record.copied_share = quality.copied_share
        record.commentary_hits = list(quality.commentary_hits)
        old = previous.get(record.unique_id)
        if old is not None and _same_apart_from_time(old, record):
            records.append(old)
            unchanged += 1
            continue
        record.created_at = record.updated_at = record.pulled_at = now
        records.append(record)
    if unchanged != len(records) or len(stored) != len(records):
        store.write_annotations(records)
    return DemoReferencesResult(len(records) - unchanged, unchanged, finalize(spec, work.root))


def _record(spec: Spec, sample: Sample, number: int, chapters: list[list[str]]) -> AnnotationRecord:
    subset, language = sample.subset, sample.language
    limit = limit_for(spec, subset)
    return AnnotationRecord(
        annotation_id=number,
        unique_id=UNIQUE_PREFIX + sample.id,
        task_id=0,
        sample_id=sample.id,
        subset=subset,
        language=language,
        limit=limit,
        annotator_id=None,
        annotator=SYNTHETIC_LABEL,
        created_at="",
        updated_at="",
        was_cancelled=False,
        summary=merge_synopses(chapters, language, limit),
        comment="merged from the demo generator's chapter synopses (synthetic)",
        in_label_studio=False,
        origin=SYNTHETIC_LABEL,
    )


def _same_apart_from_time(old: AnnotationRecord, new: AnnotationRecord) -> bool:
    times = {"created_at": "", "updated_at": "", "pulled_at": ""}
    return {**old.to_dict(), **times} == {**new.to_dict(), **times}
