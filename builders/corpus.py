"""The corpus stage: sources -> clean -> chapters -> token counts, one Book per document.

Per-document work (cleaning, chapter detection, counting) runs on an executor: a process
pool so every core is used (default), or Ray tasks (`[executor] kind = "ray"`). Results
are cached twice: a processed book (without counts) is stored under a hash of its raw
bytes and the cleaning/chapter settings, and token counts are stored per (chapter hash,
tokenizer id). A rerun with nothing changed reads both caches and tokenizes nothing.
Both verify each entry against the hash it was stored under (a changed entry is
discarded and computed again).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from lengthwise.builders.cleaning.line_signatures import book_signatures, corpus_boilerplate
from lengthwise.builders.corpus_settings import BookReport, CorpusSettings
from lengthwise.builders.document import process_document
from lengthwise.builders.joining import (
    CHAPTER_SEPARATOR,
    followed_tail,
    joins_exactly,
    render_chapter,
)
from lengthwise.executors import ExecutorConfig, make_executor
from lengthwise.executors.local import default_workers
from lengthwise.progress import ProgressStep
from lengthwise.records import Book, SourceDocument
from lengthwise.sealed import read_sealed, write_sealed
from lengthwise.spec import CleaningConfig
from lengthwise.storage import canonical_hash, sha256_text
from lengthwise.tokenizers import TokenCountCache, get_tokenizer

# Re-exported: callers import the corpus stage's records and per-document step from here.
__all__ = [
    "BookReport",
    "CorpusSettings",
    "default_workers",
    "learn_corpus_lines",
    "process_corpus",
    "process_document",
]

_Result = tuple[Book | None, BookReport, list[tuple[str, str, int]]]

log = logging.getLogger(__name__)


# The documents of the running `process_corpus`, for workers forked from it.
_INHERITED: list[SourceDocument] = []


def _process_inherited(
    index: int,
    settings: CorpusSettings,
    tokenizer_ids: Sequence[str],
    cache_path: str | None,
    book_cache_dir: str | None,
    corpus_lines: frozenset[str],
) -> _Result:
    """Worker entry point in a forked worker: the document comes with the fork."""
    doc = _INHERITED[index]
    return _process_and_count(
        doc, settings, tokenizer_ids, cache_path, book_cache_dir, corpus_lines
    )


def _process_and_count(
    doc: SourceDocument,
    settings: CorpusSettings,
    tokenizer_ids: Sequence[str],
    cache_path: str | None,
    book_cache_dir: str | None,
    corpus_lines: frozenset[str] = frozenset(),
) -> tuple[Book | None, BookReport, list[tuple[str, str, int]]]:
    """Worker entry point: process (or reuse) one document and count what the cache lacks."""
    cached_file = _book_cache_file(book_cache_dir, doc, settings, corpus_lines)
    cached = _read_cached_book(cached_file) if cached_file is not None else None
    if cached is not None:
        book, report = cached
    else:
        book, report = process_document(doc, settings, corpus_lines)
        if cached_file is not None:
            payload = {"book": book.to_dict() if book else None, "report": report.to_json()}
            _write_cached_book(cached_file, payload)
    new_counts: list[tuple[str, str, int]] = []
    if book is None:
        return None, report, new_counts
    cache = TokenCountCache(Path(cache_path)) if cache_path else None
    # Counts are of the rendered chapter (heading + body), keyed by its hash; for
    # tokenizers that join exactly, the count with the separator after it follows from
    # the chapter's last line counted with and without the separator (joining.py).
    rendered = [render_chapter(c) for c in book.chapters]
    tails = [followed_tail(r) for r in rendered]
    tail_texts = tails + [t + CHAPTER_SEPARATOR for t in tails]
    for tokenizer_id in tokenizer_ids:
        texts = rendered + tail_texts if joins_exactly(tokenizer_id) else rendered
        # Without a cache the texts themselves key the counts: no hashing needed.
        keys = [sha256_text(t) for t in texts] if cache is not None else texts
        known = cache.get_many(tokenizer_id, keys) if cache else {}
        missing = [i for i, k in enumerate(keys) if k not in known]
        if missing:
            tokenizer = get_tokenizer(tokenizer_id)
            counted = tokenizer.count_many([texts[i] for i in missing])
            for i, n in zip(missing, counted, strict=True):
                known[keys[i]] = n
            if cache is not None:  # (without one the keys are whole texts: not sent back)
                new_counts.extend((keys[i], tokenizer_id, known[keys[i]]) for i in missing)
        n_chapters = len(book.chapters)
        for i, chapter in enumerate(book.chapters):
            whole = known[keys[i]]
            chapter.token_counts[tokenizer_id] = whole
            if len(keys) > n_chapters:
                tail, tail_followed = keys[n_chapters + i], keys[2 * n_chapters + i]
                chapter.token_counts_followed[tokenizer_id] = (
                    whole - known[tail] + known[tail_followed]
                )
        report.tokens[tokenizer_id] = sum(c.token_counts[tokenizer_id] for c in book.chapters)
    if cache is not None:
        cache.close()
    return book, report, new_counts


def _write_cached_book(path: Path, payload: dict[str, Any]) -> None:
    """A sealed cache entry (`lengthwise.sealed`): the sha256 line, then the JSON payload."""
    write_sealed(path, json.dumps(payload, ensure_ascii=False).encode("utf-8"))


def _read_cached_book(path: Path) -> tuple[Book | None, BookReport] | None:
    """A processed book from the cache, or None (absent, damaged, or not what was stored).

    Each entry holds the sha256 of its content, checked here (on the bytes: cheaper than
    hashing the parsed book again): an entry edited or damaged since it was written is
    discarded (logged) and the book processed again.
    """
    body = read_sealed(path, "processing the book")
    if body is None:
        return None
    payload = json.loads(body)
    book = Book.from_dict(payload["book"]) if payload["book"] else None
    return book, BookReport.from_json(payload["report"], str(path))


def _book_cache_file(
    book_cache_dir: str | None,
    doc: SourceDocument,
    settings: CorpusSettings,
    corpus_lines: frozenset[str] = frozenset(),
) -> Path | None:
    if book_cache_dir is None:
        return None
    key = canonical_hash(
        {
            "raw": doc.raw_sha256,
            "id": doc.id,
            "title": doc.title,
            "source": doc.source,
            "lang": doc.language,
            "settings": settings.fingerprint(),
            "toc": len(doc.toc),
            "author": doc.author,
            # Only the corpus-learned lines this book holds: adding an unrelated book
            # to the corpus does not invalidate it.
            "corpus_lines": sorted(corpus_lines),
        }
    )
    return Path(book_cache_dir) / f"{doc.id}.{key[:16]}.json"


def process_corpus(
    docs: Iterable[SourceDocument],
    settings: CorpusSettings,
    tokenizer_ids: Sequence[str],
    cache_dir: Path | None = None,
    workers: int | None = None,
    progress: ProgressStep | None = None,
    executor: ExecutorConfig | None = None,
) -> Iterator[tuple[Book | None, BookReport]]:
    """Process documents in parallel, in input order; caches live under `cache_dir`.

    `executor` says where (lengthwise.executors: local processes by default, or Ray);
    the per-document function and so the results are the same either way. Each finished
    document advances `progress` (a step of the stage's display).
    """
    runner = make_executor(executor, workers)
    count_cache_path: str | None = None
    book_cache_dir: str | None = None
    cache: TokenCountCache | None = None
    if cache_dir is not None:
        cache_dir.mkdir(parents=True, exist_ok=True)
        count_cache_path = str(cache_dir / "token_counts.sqlite")
        book_cache_dir = str(cache_dir / "books")
        Path(book_cache_dir).mkdir(exist_ok=True)
        cache = TokenCountCache(Path(count_cache_path))
    # Tokenizers are loaded lazily in the workers, only when the cache lacks a count:
    # a rebuild with everything cached loads none.
    bar = progress or ProgressStep(None)
    documents = list(docs)
    try:
        # The prepass is a fraction of a second in this process; through the pool it
        # cost more than that just to send every text to the workers.
        lines = learn_corpus_lines(documents, settings.cleaning, None)
        shared = (settings, tokenizer_ids, count_cache_path, book_cache_dir)
        if runner.inherits_memory:
            _INHERITED[:] = documents  # forked workers read them: no text is pickled
            calls: list[tuple[Any, ...]] = [(i, *shared, lines[i]) for i in range(len(documents))]
            function: Callable[..., _Result] = _process_inherited
        else:
            calls = [(d, *shared, lines[i]) for i, d in enumerate(documents)]
            function = _process_and_count
        # Costliest books first keeps every worker busy to the end; results still come
        # back in input order.
        costs = [estimated_cost(d.text) for d in documents]
        order = sorted(range(len(documents)), key=lambda k: -costs[k])
        yield from _store_counts(runner.run_ordered(function, calls, order), cache, bar)
    finally:
        _INHERITED.clear()
        if cache is not None:
            cache.close()


# CPU per character of the corpus stage, CJK against Latin text, measured on the shared
# books (about 125 ns against 30 ns: more rules, more tokens per character).
_CJK_COST_FACTOR = 4.0
_COST_SAMPLE_CHARS = 20_000


def estimated_cost(text: str) -> float:
    """A book's relative processing cost, for scheduling the largest first.

    Characters, weighted by the non-ASCII share of the opening (a cheap sample):
    ordering by length alone put a 3.2 MB English novel before Chinese novels that
    cost more.
    """
    sample = text[:_COST_SAMPLE_CHARS]
    if not sample or sample.isascii():
        return float(len(text))
    ascii_share = len(sample.encode("ascii", "ignore")) / len(sample)
    return len(text) * (1.0 + (_CJK_COST_FACTOR - 1.0) * (1.0 - ascii_share))


def learn_corpus_lines(
    documents: Sequence[SourceDocument],
    cleaning: CleaningConfig,
    pool: ProcessPoolExecutor | None,
) -> list[frozenset[str]]:
    """Per document, the line signatures learned as boilerplate across the corpus.

    A pass before cleaning: each worker returns one book's candidate signatures (short,
    non-prose lines that recur in it or sit at its ends; `book_signatures`), the parent
    keeps those found in `learned_min_books` books or more and hands each book the ones
    it holds (they are part of its cache key).
    """
    empty: list[frozenset[str]] = [frozenset()] * len(documents)
    if not cleaning.learned_boilerplate or len(documents) < cleaning.learned_min_books:
        return empty
    max_chars = [cleaning.learned_max_line_chars] * len(documents)
    texts = [d.text for d in documents]
    per_book = list(
        pool.map(book_signatures, texts, max_chars, chunksize=4)
        if pool is not None
        else map(book_signatures, texts, max_chars)
    )
    corpus = corpus_boilerplate(per_book, cleaning.learned_min_books)
    if not corpus:
        return empty
    return [corpus.intersection(sigs) for sigs in per_book]


def _store_counts(
    results: Iterable[tuple[Book | None, BookReport, list[tuple[str, str, int]]]],
    cache: TokenCountCache | None,
    bar: ProgressStep,
) -> Iterator[tuple[Book | None, BookReport]]:
    for book, report, new_counts in results:
        if cache is not None and new_counts:
            for tokenizer_id in {t for _, t, _ in new_counts}:
                cache.put_many(
                    tokenizer_id, {sha: n for sha, t, n in new_counts if t == tokenizer_id}
                )
        bar.advance()
        yield book, report
