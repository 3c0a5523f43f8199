"""Audit selected samples from their chapters' pieces (cached), the text as a fallback.

Each distinct chapter of the selection is rendered and hashed once; its pieces come
from the piece store (computed on a miss). A sample whose text is not its chapters
joined (it should always be) or where a term may run across a join is audited from
its text with `audit_sample`, which gives the same record, only slower.

The chapters' pieces and the text audits run on an executor (lengthwise.executors) in
batches; the plans, the piece store and the output order stay here. Combining a
sample's cached pieces also stays here: it costs well under a millisecond a sample, far
less than shipping the sample's text to a worker (starting the pool alone cost a
sampling-only rebuild ~60 ms), and gives the same record wherever it runs.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping, Sequence

from lengthwise.builders.audit.chapter_pieces import ChapterPieces
from lengthwise.builders.audit.findings import SampleAudit
from lengthwise.builders.audit.joined_audit import audit_from_pieces
from lengthwise.builders.audit.piece_cache import PieceStore, piece_key
from lengthwise.builders.audit.sample_audit import audit_sample
from lengthwise.builders.audit.vocabulary import LanguageProfile, profile_for
from lengthwise.builders.cleaning.fragments import chapter_counts
from lengthwise.builders.joining import CHAPTER_SEPARATOR, render_chapter
from lengthwise.executors import Executor, make_executor
from lengthwise.executors.batches import run_batched
from lengthwise.records import Book, Sample
from lengthwise.spec import AuditConfig
from lengthwise.storage import sha256_text

# (key, rendered text) of each chapter a sample holds; None when its book is unknown.
Plan = list[tuple[str, str]] | None
# One sample to audit, its chapters' pieces (None: audit its text) and the counts of its
# book's recurring fragments within it.
Planned = tuple[Sample, list[ChapterPieces] | None, Mapping[str, int] | None]
BATCH_CHARS = 2_000_000  # sample text per executor call


def audit_rows(
    rows: Sequence[Sample],
    books: Mapping[str, Book],
    config: AuditConfig,
    store: PieceStore,
    runner: Executor | None = None,
) -> list[SampleAudit]:
    """Every row's audit, in row order; pieces and text audits on `runner` (default: here)."""
    runner = runner or make_executor(workers=1)
    every, plans = _plans(rows, books, config)
    pieces = store.pieces(every, (key for plan in plans if plan for key, _ in plan), runner)
    fragments = _book_fragments(rows, books, config, store)
    planned: list[Planned] = []
    for row, plan in zip(rows, plans, strict=True):
        joined = plan is not None and _is_joined(row.text, [text for _, text in plan])
        if plan is None or not joined:
            planned.append((row, None, None))
            continue
        counts: Counter[str] = Counter()
        for fragment, per_chapter in fragments.get(row.book_id, {}).items():
            for index in range(row.first_chapter, row.last_chapter + 1):
                counts[fragment] += per_chapter.get(index, 0)
        planned.append((row, [pieces[key] for key, _ in plan], counts))
    return audit_samples(planned, config, runner)


def _book_fragments(
    rows: Sequence[Sample], books: Mapping[str, Book], config: AuditConfig, store: PieceStore
) -> dict[str, dict[str, dict[int, int]]]:
    """Per book with samples: its recurring fragments' counts per chapter (stored)."""
    found: dict[str, dict[str, dict[int, int]]] = {}
    for book_id in dict.fromkeys(row.book_id for row in rows):
        if book_id not in books:
            continue
        book = books[book_id]
        profile = profile_for(book.language or "en", config)
        keys = [piece_key(chapter, profile) for chapter in book.chapters]
        key = sha256_text("\0".join([str(config.repeated_fragment_min), *keys]))
        found[book_id] = store.book_fragments(
            key, functools.partial(_fragment_counts, book, config.repeated_fragment_min)
        )
    return found


def audit_samples(
    planned: Sequence[Planned],
    config: AuditConfig,
    runner: Executor,
) -> list[SampleAudit]:
    """Every sample's audit, in input order: from its pieces here where they suffice,
    from its text on `runner` otherwise."""
    audits: list[SampleAudit | None] = [
        audit_from_pieces(row, pieces, config, fragments) if pieces is not None else None
        for row, pieces, fragments in planned
    ]
    missing = [i for i, audit in enumerate(audits) if audit is None]
    texts = [planned[i][0] for i in missing]
    sizes = [len(row.text) for row in texts]
    from_text = run_batched(runner, audit_text_batch, texts, sizes, BATCH_CHARS, (config,))
    for index, audit in zip(missing, from_text, strict=True):
        audits[index] = audit
    return [audit for audit in audits if audit is not None]


def audit_text_batch(rows: list[Sample], config: AuditConfig) -> list[SampleAudit]:
    """One executor call: each sample audited from its text."""
    return [audit_sample(row, config) for row in rows]


def _fragment_counts(book: Book, minimum: int) -> dict[str, dict[int, int]]:
    texts = [render_chapter(chapter) for chapter in book.chapters]
    return chapter_counts(texts, CHAPTER_SEPARATOR, minimum)


def _plans(
    rows: Sequence[Sample], books: Mapping[str, Book], config: AuditConfig
) -> tuple[dict[str, tuple[str, LanguageProfile]], list[Plan]]:
    """Every chapter of the samples' books (key -> text, profile), and each sample's plan."""
    rendered: dict[tuple[str, int], tuple[str, str]] = {}
    every: dict[str, tuple[str, LanguageProfile]] = {}
    for book_id in dict.fromkeys(row.book_id for row in rows):
        if book_id not in books:
            continue
        book = books[book_id]
        profile = profile_for(book.language or "en", config)
        for chapter in book.chapters:
            text = render_chapter(chapter)
            key = piece_key(chapter, profile)
            rendered[book.id, chapter.index] = (key, text)
            every[key] = (text, profile)
    plans: list[Plan] = []
    for row in rows:
        first, last = row.first_chapter, row.last_chapter
        chapters = [rendered.get((row.book_id, i)) for i in range(first, last + 1)]
        ok = [c for c in chapters if c is not None]
        plans.append(ok if len(ok) == len(chapters) else None)
    return every, plans


def _is_joined(text: str, chapters: Sequence[str]) -> bool:
    """Whether `text` is exactly `chapters` joined by the separator (no copy made)."""
    at = 0
    for i, chapter in enumerate(chapters):
        if i:
            if not text.startswith(CHAPTER_SEPARATOR, at):
                return False
            at += len(CHAPTER_SEPARATOR)
        if not text.startswith(chapter, at):
            return False
        at += len(chapter)
    return at == len(text)


__all__ = ["ChapterPieces", "audit_rows"]
