"""What a release is made of: each subset's rows (samples joined with their human
summaries), the books they come from, and the facts the card reports per subset."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from lengthwise.records import Sample
from lengthwise.releases.release.card import SubsetFacts
from lengthwise.releases.release.corpus_book import CorpusBook
from lengthwise.releases.release.layout import ReleaseError
from lengthwise.releases.release.schema import ReleaseRow, public_source, release_row
from lengthwise.releases.release.summaries import load_annotations
from lengthwise.spec import Spec, SubsetSpec
from lengthwise.store import MissingRecords, WorkStore
from lengthwise.workdir import WorkDir


@dataclass
class SubsetRows:
    spec: SubsetSpec
    rows: list[ReleaseRow]
    annotated: int


def summary_length(summary: str, language: str) -> int:
    """CNNSum's unit: characters for Chinese and Japanese (no spaces between words),
    words otherwise."""
    if language.startswith(("zh", "ja")):
        return sum(1 for ch in summary if not ch.isspace())
    return len(summary.split())


def read_samples(store: WorkStore, subset: str) -> list[Sample]:
    try:
        return store.samples(subset, annotated=False)
    except MissingRecords:
        path = store.work.subset_samples(subset)
        raise ReleaseError(f"{path}: no samples; run `lengthwise build SPEC.toml` first") from None


def collect_subsets(
    spec: Spec, work: WorkDir, tokenizer_names: Mapping[str, str]
) -> tuple[list[SubsetRows], list[str]]:
    collected: list[SubsetRows] = []
    skipped: list[str] = []
    for subset in spec.subsets:
        path = work.subset_samples(subset.name)
        samples = read_samples(WorkStore(work), subset.name)
        if not samples:
            skipped.append(subset.name)  # datasets cannot load an empty config
            continue
        stale = [s.id for s in samples if (s.lower, s.upper) != (subset.lower, subset.upper)]
        if stale:
            raise ReleaseError(
                f"{path}: samples were cut for a different interval than subset "
                f"{subset.name!r} of the spec; rerun `lengthwise build`"
            )
        annotations = load_annotations(work.root, subset.name, samples)
        rows = []
        for sample in samples:
            found = annotations.get(sample.id)
            rows.append(
                release_row(
                    sample,
                    found.summary if found else None,
                    found.metadata if found else None,
                    tokenizer_names,
                )
            )
        annotated = sum(1 for r in rows if r["summary"] is not None)
        collected.append(SubsetRows(subset, rows, annotated))
    return collected, skipped


def corpus_books(work: WorkDir, subsets: list[SubsetRows]) -> list[CorpusBook]:
    try:
        books = WorkStore(work).books()
    except MissingRecords:
        raise ReleaseError(
            f"{work.books}: no corpus; run `lengthwise build SPEC.toml` first"
        ) from None
    used = Counter(r["book_id"] for s in subsets for r in s.rows)
    return [
        CorpusBook(
            book_id=book.id,
            title=book.title,
            language=book.language,
            chapters=len(book.chapters),
            raw_sha256=book.raw_sha256,
            source=public_source(book.source),
            license_note=book.license_note,
            samples=used.get(book.id, 0),
        )
        for book in books.values()
    ]


def refuse_unannotated(subsets: list[SubsetRows]) -> None:
    missing = {s.spec.name: len(s.rows) - s.annotated for s in subsets}
    total_missing = sum(missing.values())
    total = sum(len(s.rows) for s in subsets)
    detail = ", ".join(f"{name} {count}" for name, count in missing.items() if count)
    raise ReleaseError(
        f"{total_missing} of {total} samples have no human summary ({detail}); finish the "
        "annotation (`lengthwise annotate pull`) or pass --allow-unannotated to release the "
        "contexts without references (the card will say so)"
    )


def subset_facts(subset: SubsetRows) -> SubsetFacts:
    tokens = [r["tokens"] for r in subset.rows]
    return SubsetFacts(
        spec=subset.spec,
        rows=len(subset.rows),
        annotated=subset.annotated,
        books=len({r["book_id"] for r in subset.rows}),
        tokens_mean=sum(tokens) / len(tokens),
        tokens_min=min(tokens),
        tokens_max=max(tokens),
        summary_lengths=[
            summary_length(r["summary"], r["language"])
            for r in subset.rows
            if r["summary"] is not None
        ],
    )


def annotation_fields(subsets: list[SubsetRows]) -> list[str]:
    keys: set[str] = set()
    for subset in subsets:
        for row in subset.rows:
            if row["annotation"]:
                keys.update(json.loads(row["annotation"]))
    return sorted(keys)
