"""Count tokens of many texts with many tokenizers: cached on disk, parallel over processes.

Counts are cached in SQLite per (text sha256, tokenizer key), where the key
changes whenever the counts could (see ``registry.tokenizer_cache_key``). Only
texts missing from the cache are tokenized; their counts are stored as soon
as each chunk finishes, so an interrupted run repeats no finished chunk.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import multiprocessing
import os
import sqlite3
import sys
import threading
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

from tqdm import tqdm

from lengthwise.errors import InputFileError
from lengthwise.storage import sha256_text
from lengthwise.tokenizers.ids import parse_tokenizer_id
from lengthwise.tokenizers.registry import get_tokenizer, tokenizer_cache_key
from lengthwise.workers import worker_pool

# Texts per work item are grouped up to about this many characters: big enough
# that pickling and scheduling cost little, small enough to balance two cores.
DEFAULT_CHUNK_CHARS = 400_000
_SQLITE_MAX_PARAMS = 500

log = logging.getLogger(__name__)


class TokenCountCache:
    """SQLite table (text_sha256, tokenizer_key) -> token count, in WAL mode.

    Callers pass tokenizer ids; the cache stores them under
    :func:`~lengthwise.tokenizers.registry.tokenizer_cache_key`. Safe to share
    between threads and between processes (SQLite locking, WAL).

    Each row carries a check of its key and count (`row_check`): a row whose count was
    changed since it was stored (edited, damaged) is discarded on read, counted in
    `discarded` and logged, and the text is counted again. A table from before the
    checks is dropped once (the counts are recomputed).
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self.discarded = 0  # rows whose check failed, since this cache was opened
        try:
            self._connection = sqlite3.connect(
                self.path, timeout=60, isolation_level=None, check_same_thread=False
            )
            self._connection.execute("PRAGMA journal_mode=WAL")
            self._connection.execute("PRAGMA synchronous=NORMAL")
            self._create_table()
        except sqlite3.DatabaseError as exc:
            raise InputFileError(f"{self.path}: not a usable token count cache: {exc}") from exc

    def _create_table(self) -> None:
        connection = self._connection
        connection.execute("BEGIN IMMEDIATE")  # one process migrates, the others wait
        try:
            columns = {row[1] for row in connection.execute("PRAGMA table_info(token_counts)")}
            if columns and "row_check" not in columns:
                connection.execute("DROP TABLE token_counts")  # unverifiable rows: recount
            connection.execute(
                "CREATE TABLE IF NOT EXISTS token_counts ("
                " text_sha256 TEXT NOT NULL,"
                " tokenizer_key TEXT NOT NULL,"
                " count INTEGER NOT NULL,"
                " row_check TEXT NOT NULL,"
                " PRIMARY KEY (text_sha256, tokenizer_key)) WITHOUT ROWID"
            )
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT")

    def get_many(self, tokenizer_id: str, text_sha256s: Iterable[str]) -> dict[str, int]:
        """Cached counts of the given texts under `tokenizer_id` (missing ones left out,
        and rows whose check fails: they are counted again)."""
        key = tokenizer_cache_key(tokenizer_id)
        found: dict[str, int] = {}
        discarded = 0
        with self._lock:
            for batch in _batches(list(dict.fromkeys(text_sha256s)), _SQLITE_MAX_PARAMS):
                marks = ",".join("?" * len(batch))
                rows = self._connection.execute(
                    "SELECT text_sha256, count, row_check FROM token_counts"
                    f" WHERE tokenizer_key = ? AND text_sha256 IN ({marks})",
                    (key, *batch),
                )
                for sha, count, check in rows:
                    if isinstance(count, int) and check == row_check(sha, key, count):
                        found[sha] = count
                    else:
                        discarded += 1
            self.discarded += discarded
        if discarded:
            log.warning(
                "%s: %d token count cache entries do not match the check they were stored "
                "with; discarded, their texts are counted again",
                self.path,
                discarded,
            )
        return found

    def put_many(self, tokenizer_id: str, counts: Mapping[str, int]) -> None:
        """Store counts (text sha256 -> count) under `tokenizer_id`, in one transaction."""
        key = tokenizer_cache_key(tokenizer_id)
        rows = [(sha, key, int(n), row_check(sha, key, int(n))) for sha, n in counts.items()]
        with self._lock:
            self._connection.execute("BEGIN IMMEDIATE")
            try:
                self._connection.executemany(
                    "INSERT OR REPLACE INTO token_counts"
                    " (text_sha256, tokenizer_key, count, row_check) VALUES (?, ?, ?, ?)",
                    rows,
                )
            except BaseException:
                self._connection.execute("ROLLBACK")
                raise
            self._connection.execute("COMMIT")

    def close(self) -> None:
        with self._lock:
            self._connection.close()

    def __enter__(self) -> TokenCountCache:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


def row_check(text_sha256: str, tokenizer_key: str, count: int) -> str:
    """The check stored with a cached count: a hash of its key and value."""
    return hashlib.sha256(f"{text_sha256}\0{tokenizer_key}\0{count}".encode()).hexdigest()[:16]


@dataclass
class CountResult:
    """Counts per tokenizer id aligned with the input, and how much work was done."""

    counts: dict[str, list[int]]
    tokenized: dict[str, int] = field(default_factory=dict)  # distinct texts tokenized
    from_cache: dict[str, int] = field(default_factory=dict)  # distinct texts found cached
    worker_pids: set[int] = field(default_factory=set)  # processes that tokenized
    seconds: float = 0.0


class _ProgressBar(tqdm):  # type: ignore[misc]  # tqdm ships no type hints
    # tqdm's monitor thread would outlive the bar, and with a thread running
    # later pools could no longer use fork (see process_context).
    monitor_interval = 0


@dataclass(frozen=True)
class _Job:
    tokenizer_id: str
    text_sha256s: tuple[str, ...]
    characters: int


def count_texts(
    texts: Sequence[tuple[str, str]],
    tokenizer_ids: Sequence[str],
    cache: TokenCountCache | None = None,
    workers: int = 2,
    progress: bool = False,
) -> dict[str, list[int]]:
    """Token counts of `texts` ((sha256, text) pairs) per tokenizer id, aligned to `texts`.

    Only texts missing from `cache` are tokenized, in `workers` processes (each
    builds its tokenizers once); ``workers=1`` counts in this process. Each
    sha256 must be that of its text (``lengthwise.storage.sha256_text``).

    Workers are forked on POSIX when this process runs no other thread (they then
    inherit tokenizers built here); otherwise they are spawned, and a calling
    script must guard its entry point with ``if __name__ == "__main__":``.
    """
    return count_texts_detailed(texts, tokenizer_ids, cache, workers, progress).counts


def count_texts_detailed(
    texts: Sequence[tuple[str, str]],
    tokenizer_ids: Sequence[str],
    cache: TokenCountCache | None = None,
    workers: int = 2,
    progress: bool = False,
    chunk_chars: int = DEFAULT_CHUNK_CHARS,
) -> CountResult:
    """:func:`count_texts`, also saying how many texts were tokenized or cached."""
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    started = time.perf_counter()
    ids = list(dict.fromkeys(tokenizer_ids))
    for tokenizer_id in ids:  # fail on a bad id or missing file before any work
        tokenizer_cache_key(tokenizer_id)
    unique_texts = _unique_texts(texts)
    known: dict[str, dict[str, int]] = {
        tokenizer_id: cache.get_many(tokenizer_id, unique_texts) if cache else {}
        for tokenizer_id in ids
    }
    result = CountResult(counts={})
    result.from_cache = {tokenizer_id: len(known[tokenizer_id]) for tokenizer_id in ids}
    result.tokenized = dict.fromkeys(ids, 0)

    jobs = _plan_jobs(ids, unique_texts, known, chunk_chars, workers)
    with contextlib.ExitStack() as stack:
        results = _start_jobs(jobs, unique_texts, workers, stack)
        bar = stack.enter_context(
            _ProgressBar(
                total=sum(job.characters for job in jobs),
                unit="char",
                unit_scale=True,
                desc="counting tokens",
                file=sys.stderr,
                disable=not progress,
            )
        )
        for job, (pid, counts) in results:
            result.worker_pids.add(pid)
            job_counts = dict(zip(job.text_sha256s, counts, strict=True))
            known[job.tokenizer_id].update(job_counts)
            if cache is not None:
                cache.put_many(job.tokenizer_id, job_counts)
            result.tokenized[job.tokenizer_id] += len(job_counts)
            bar.update(job.characters)

    result.counts = {
        tokenizer_id: [known[tokenizer_id][sha] for sha, _ in texts] for tokenizer_id in ids
    }
    result.seconds = time.perf_counter() - started
    return result


def _unique_texts(texts: Sequence[tuple[str, str]]) -> dict[str, str]:
    unique: dict[str, str] = {}
    for index, item in enumerate(texts):
        try:
            sha, text = item
        except (TypeError, ValueError):
            raise ValueError(f"texts[{index}]: expected a (sha256, text) pair") from None
        if sha in unique:
            if unique[sha] is text or unique[sha] == text:  # a repeat: hashed already
                continue
            raise ValueError(f"texts[{index}]: sha256 {sha!r} is given for two different texts")
        # A wrong hash would store counts under another text's key for good: check it.
        if sha256_text(text) != sha:
            raise ValueError(
                f"texts[{index}]: sha256 {sha!r} is not the sha256 of its text "
                "(use lengthwise.storage.sha256_text)"
            )
        unique[sha] = text
    return unique


def _plan_jobs(
    ids: Sequence[str],
    unique_texts: Mapping[str, str],
    known: Mapping[str, Mapping[str, int]],
    chunk_chars: int,
    workers: int,
) -> list[_Job]:
    jobs: list[_Job] = []
    for tokenizer_id in ids:
        missing = [sha for sha in unique_texts if sha not in known[tokenizer_id]]
        total = sum(len(unique_texts[sha]) for sha in missing)
        # At least a few chunks per worker, so no core idles at the end.
        limit = max(1, min(chunk_chars, total // (4 * workers) + 1))
        batch: list[str] = []
        size = 0
        for sha in missing:
            batch.append(sha)
            size += len(unique_texts[sha])
            if size >= limit:
                jobs.append(_Job(tokenizer_id, tuple(batch), size))
                batch, size = [], 0
        if batch:
            jobs.append(_Job(tokenizer_id, tuple(batch), size))
    # Largest first: the long tail finishes together on every worker.
    return sorted(jobs, key=lambda job: job.characters, reverse=True)


def _start_jobs(
    jobs: Sequence[_Job],
    unique_texts: Mapping[str, str],
    workers: int,
    stack: contextlib.ExitStack,
) -> Iterator[tuple[_Job, tuple[int, list[int]]]]:
    """Submit every job and return their results as they finish.

    Worker processes are started here, before the caller opens its progress bar
    (tqdm starts a monitor thread, and fork is only chosen with no other thread).
    """
    if workers == 1 or len(jobs) <= 1:
        return (
            (job, _count_chunk(job.tokenizer_id, [unique_texts[s] for s in job.text_sha256s]))
            for job in jobs
        )
    context = process_context()
    if context.get_start_method() == "fork":
        # Build each tokenizer once here: forked workers inherit it ready-made, and
        # later calls in this process start counting at once.
        for tokenizer_id in dict.fromkeys(job.tokenizer_id for job in jobs):
            get_tokenizer(tokenizer_id)
    executor = worker_pool(min(workers, len(jobs)), context)

    def shut_down(exc_type: type[BaseException] | None, *_: object) -> bool:
        # On an error or Ctrl-C, drop queued chunks instead of finishing them.
        executor.shutdown(wait=True, cancel_futures=exc_type is not None)
        return False

    stack.push(shut_down)
    pending: dict[Future[tuple[int, list[int]]], _Job] = {}
    for job in jobs:
        chunk = [unique_texts[sha] for sha in job.text_sha256s]
        # Workers rebuild tokenizers from the canonical id (absolute paths).
        canonical = parse_tokenizer_id(job.tokenizer_id).canonical
        pending[executor.submit(_count_chunk, canonical, chunk)] = job
    return _finished(pending)


def _finished(
    pending: dict[Future[tuple[int, list[int]]], _Job],
) -> Iterator[tuple[_Job, tuple[int, list[int]]]]:
    while pending:
        done, _ = wait(pending, return_when=FIRST_COMPLETED)
        for future in done:
            yield pending.pop(future), future.result()


def process_context() -> multiprocessing.context.BaseContext:
    """fork where it is safe (POSIX, no other thread running), else spawn.

    fork starts workers in milliseconds, inherits tokenizers this process already
    built and does not re-run the caller's __main__; it is unsafe only when other
    threads might hold locks at fork time. spawn needs the caller's script to
    guard its entry point with ``if __name__ == "__main__":``.
    """
    if "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def _count_chunk(tokenizer_id: str, texts: list[str]) -> tuple[int, list[int]]:
    """Worker entry point: get_tokenizer caches, so a process builds a tokenizer at most once."""
    return os.getpid(), get_tokenizer(tokenizer_id).count_many(texts)


def _batches(items: Sequence[str], size: int) -> Iterator[Sequence[str]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]
