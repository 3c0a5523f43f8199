"""The corpus stage: sources -> clean -> chapters -> token counts, one Book per document.

Per-document work (cleaning, chapter detection, counting) runs in a process pool so
both cores are used. Results are cached twice: a processed book (without counts) is
stored under a hash of its raw bytes and the cleaning/chapter settings, and token
counts are stored per (chapter hash, tokenizer id). A rerun with nothing changed
reads both caches and tokenizes nothing.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tqdm import tqdm

from lengthwise.builders.chapters import detect_chapters
from lengthwise.builders.cleaning import clean_text
from lengthwise.builders.cleaning.damage import count_damage
from lengthwise.builders.joining import CHAPTER_SEPARATOR, joins_exactly, render_chapter
from lengthwise.builders.language import detect_language
from lengthwise.records import Book, Chapter, SourceDocument
from lengthwise.spec import ChaptersConfig, CleaningConfig
from lengthwise.storage import atomic_write_json, canonical_hash, read_json, sha256_text
from lengthwise.tokenizers import TokenCountCache, get_tokenizer, process_context

# Bump when cleaning or chapter detection changes output for the same input.
PIPELINE_VERSION = "corpus-4"


@dataclass
class BookReport:
    """What the corpus stage found for one document (the `inspect --json` contract)."""

    path: str
    id: str
    title: str
    language: str
    encoding: str
    chapters: int
    numbers: list[int]  # printed numbers of numbered chapters, as integers, in order
    kinds: list[str]  # per chapter: chapter / prologue / epilogue / ...
    gaps: list[list[int]]  # [from, to] missing number ranges
    duplicates: list[int]
    removed: dict[str, int]  # cleaning rule -> count
    removed_examples: dict[str, list[str]]
    excluded: str | None
    story_collection: bool = False
    # Headings kept out of the chapters (a zh 楔子 by default), so nothing vanishes silently.
    front_matter_headings: list[str] = field(default_factory=list)
    undecodable_bytes: int = 0
    warnings: list[str] = field(default_factory=list)
    tokens: dict[str, int] = field(default_factory=dict)  # tokenizer id -> total over chapters
    # Damaged characters left in the cleaned text (cleaning.damage.DamageCounts fields).
    damage: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class CorpusSettings:
    """Everything that changes what the corpus stage produces for a document."""

    language: str  # "zh", "en" or "auto"
    cleaning: CleaningConfig
    chapters: ChaptersConfig

    def fingerprint(self) -> str:
        return canonical_hash(
            {
                "version": PIPELINE_VERSION,
                "language": self.language,
                "cleaning": self.cleaning.model_dump(mode="json"),
                "chapters": self.chapters.model_dump(mode="json"),
            }
        )


def source_kind(source: str) -> str:
    """The kind of source a document came from, as cleaning rule selection needs it."""
    if source.startswith("gutenberg:"):
        return "gutenberg"
    if source.startswith(("http://", "https://")):
        return "urls"
    if source.startswith("hf:"):
        return "hf"
    return "files"


def process_document(
    doc: SourceDocument, settings: CorpusSettings
) -> tuple[Book | None, BookReport]:
    """Clean one document and find its chapters (no token counting)."""
    language = doc.language or (settings.language if settings.language != "auto" else None)
    language = language or detect_language(doc.text)
    cleaned = clean_text(doc.text, language, settings.cleaning, source_kind=source_kind(doc.source))
    detection = detect_chapters(
        cleaned.text,
        language,
        toc=doc.toc or None,
        min_chapter_chars=settings.chapters.min_chapter_chars,
    )
    detected = list(detection.chapters)
    front_matter: list[str] = []
    if (
        language == "zh"
        and detected
        and detected[0].kind == "prologue"
        and not settings.chapters.keep_zh_prologue
    ):
        front_matter.append(detected.pop(0).heading)
    excluded = detection.excluded
    if excluded is None and len(detected) < settings.chapters.min_chapters:
        excluded = (
            f"only {len(detected)} chapter(s) found, "
            f"spec requires chapters.min_chapters = {settings.chapters.min_chapters}"
        )
    if (
        excluded is None
        and detection.story_collection
        and settings.chapters.exclude_story_collections
    ):
        excluded = f"story collection ({detection.story_collection_reason})"
    chapters = [
        Chapter(
            book_id=doc.id,
            index=i,
            heading=c.heading,
            number=c.number,
            title=c.title,
            text=c.text,
            part=c.part,
        )
        for i, c in enumerate(detected)
    ]
    report = BookReport(
        path=doc.source,
        id=doc.id,
        title=doc.title,
        language=language,
        encoding=doc.encoding,
        chapters=len(chapters),
        numbers=[c.number for c in detected if c.number is not None],
        kinds=[c.kind for c in detected],
        gaps=[list(g) for g in detection.gaps],
        duplicates=list(detection.duplicates),
        removed=dict(cleaned.removed),
        removed_examples=dict(cleaned.examples),
        excluded=excluded,
        story_collection=detection.story_collection,
        front_matter_headings=front_matter,
        undecodable_bytes=doc.undecodable_bytes,
        warnings=list(doc.warnings),
        damage=count_damage(cleaned.text).to_dict(),
    )
    if excluded is not None:
        return None, report
    book = Book(
        id=doc.id,
        title=doc.title,
        language=language,
        source=doc.source,
        raw_sha256=doc.raw_sha256,
        encoding=doc.encoding,
        chapters=chapters,
        author=doc.author,
        license_note=doc.license_note,
    )
    return book, report


_Result = tuple[Book | None, BookReport, list[tuple[str, str, int]]]


def _process_and_count(
    doc: SourceDocument,
    settings: CorpusSettings,
    tokenizer_ids: Sequence[str],
    cache_path: str | None,
    book_cache_dir: str | None,
) -> tuple[Book | None, BookReport, list[tuple[str, str, int]]]:
    """Worker entry point: process (or reuse) one document and count what the cache lacks."""
    book: Book | None
    cached_file = _book_cache_file(book_cache_dir, doc, settings)
    if cached_file is not None and cached_file.is_file():
        stored = read_json(cached_file)
        book = Book.from_dict(stored["book"]) if stored["book"] else None
        report = BookReport(**stored["report"])
    else:
        book, report = process_document(doc, settings)
        if cached_file is not None:
            atomic_write_json(
                cached_file, {"book": book.to_dict() if book else None, "report": report.to_dict()}
            )
    new_counts: list[tuple[str, str, int]] = []
    if book is None:
        return None, report, new_counts
    cache = TokenCountCache(Path(cache_path)) if cache_path else None
    # Counts are of the rendered chapter (heading + body), keyed by its hash; for
    # tokenizers that join exactly, also of the chapter followed by the separator.
    rendered = [render_chapter(c) for c in book.chapters]
    followed = [r + CHAPTER_SEPARATOR for r in rendered]
    for tokenizer_id in tokenizer_ids:
        texts = rendered + followed if joins_exactly(tokenizer_id) else rendered
        keys = [sha256_text(t) for t in texts]
        known = cache.get_many(tokenizer_id, keys) if cache else {}
        missing = [i for i, k in enumerate(keys) if k not in known]
        if missing:
            tokenizer = get_tokenizer(tokenizer_id)
            counted = tokenizer.count_many([texts[i] for i in missing])
            for i, n in zip(missing, counted, strict=True):
                known[keys[i]] = n
                new_counts.append((keys[i], tokenizer_id, n))
        n_chapters = len(book.chapters)
        for i, chapter in enumerate(book.chapters):
            chapter.token_counts[tokenizer_id] = known[keys[i]]
            if len(keys) > n_chapters:
                chapter.token_counts_followed[tokenizer_id] = known[keys[n_chapters + i]]
        report.tokens[tokenizer_id] = sum(c.token_counts[tokenizer_id] for c in book.chapters)
    if cache is not None:
        cache.close()
    return book, report, new_counts


def _book_cache_file(
    book_cache_dir: str | None, doc: SourceDocument, settings: CorpusSettings
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
        }
    )
    return Path(book_cache_dir) / f"{doc.id}.{key[:16]}.json"


class _Progress(tqdm):  # type: ignore[misc]  # tqdm ships no type hints
    # No monitor thread: with a thread running, later process pools could not fork.
    monitor_interval = 0


def default_workers() -> int:
    return max(1, min(os.cpu_count() or 1, 8))


def process_corpus(
    docs: Iterable[SourceDocument],
    settings: CorpusSettings,
    tokenizer_ids: Sequence[str],
    cache_dir: Path | None = None,
    workers: int | None = None,
    progress: bool = True,
    total: int | None = None,
) -> Iterator[tuple[Book | None, BookReport]]:
    """Process documents in parallel, in input order; caches live under `cache_dir`."""
    workers = workers or default_workers()
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
    context = process_context()
    bar = _Progress(total=total, desc="books", unit="book", disable=not progress, leave=False)
    try:
        if workers == 1:
            results: Iterator[tuple[Book | None, BookReport, list[tuple[str, str, int]]]] = (
                _process_and_count(d, settings, tokenizer_ids, count_cache_path, book_cache_dir)
                for d in docs
            )
            yield from _store_counts(results, cache, bar)
        else:
            documents = list(docs)
            with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
                # Largest books first keeps every worker busy to the end; results are
                # still yielded in input order.
                futures: dict[int, Future[_Result]] = {}
                for i in sorted(range(len(documents)), key=lambda k: -len(documents[k].text)):
                    futures[i] = pool.submit(
                        _process_and_count,
                        documents[i],
                        settings,
                        tokenizer_ids,
                        count_cache_path,
                        book_cache_dir,
                    )
                ordered = (futures[i].result() for i in range(len(documents)))
                yield from _store_counts(ordered, cache, bar)
    finally:
        bar.close()
        if cache is not None:
            cache.close()


def _store_counts(
    results: Iterable[tuple[Book | None, BookReport, list[tuple[str, str, int]]]],
    cache: TokenCountCache | None,
    bar: tqdm[Any],
) -> Iterator[tuple[Book | None, BookReport]]:
    for book, report, new_counts in results:
        if cache is not None and new_counts:
            for tokenizer_id in {t for _, t, _ in new_counts}:
                cache.put_many(
                    tokenizer_id, {sha: n for sha, t, n in new_counts if t == tokenizer_id}
                )
        bar.update(1)
        yield book, report
