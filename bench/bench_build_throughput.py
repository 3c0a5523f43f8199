"""Build-stage throughput against the bare tokenizer, as a ratio, on the same cores.

Ours:      read files -> decode -> clean -> detect chapters -> count tokens (no caches),
           through `process_corpus` with N worker processes.
Baseline:  the bare tokenizer counting the same decoded texts, split into the same
           number of processes (fork, tokenizer built before forking, like ours), the
           costliest texts first by the same estimate the build schedules books with.

Both run in this process, alternating, several rounds; medians are reported.
With --floor, a third side: the build stage with every book's cleaning and chapter
detection done beforehand (and no corpus prepass), so what remains is reading, the pool,
counting and returning books: the most any speed-up of cleaning and detection could give.
Usage: .venv/bin/python bench/bench_build_throughput.py [FOLDER ...] [--workers 2] [--rounds 3]
       [--floor]
Defaults to the shared zh and en corpora (../shared/corpora).
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import lengthwise.builders.corpus as corpus_module
from lengthwise.builders.corpus import (
    BookReport,
    CorpusSettings,
    estimated_cost,
    learn_corpus_lines,
    process_corpus,
)
from lengthwise.builders.sources.local import SourceFailure, read_local
from lengthwise.records import Book, SourceDocument
from lengthwise.spec import ChaptersConfig, CleaningConfig
from lengthwise.tokenizers import get_tokenizer

SHARED = Path(__file__).resolve().parents[2] / "shared" / "corpora"
TOKENIZER = "qwen2.5"


def _count(texts: list[str]) -> int:
    tokenizer = get_tokenizer(TOKENIZER)
    return sum(tokenizer.count(t) for t in texts)


def bare_tokenizer(texts: list[str], workers: int, cost: Callable[[str], float]) -> float:
    """Seconds for the bare tokenizer to count `texts` on `workers` processes."""
    get_tokenizer(TOKENIZER)
    # Balance the work: costliest texts first, each to the currently lightest worker.
    shares: list[list[str]] = [[] for _ in range(workers)]
    loads = [0.0] * workers
    for text in sorted(texts, key=cost, reverse=True):
        i = loads.index(min(loads))
        shares[i].append(text)
        loads[i] += cost(text)
    started = time.perf_counter()
    ctx = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
        sum(pool.map(_count, shares))
    return time.perf_counter() - started


def build_stage(paths: list[Path], workers: int) -> float:
    """Seconds for reading, decoding, cleaning, chapter detection and counting."""
    started = time.perf_counter()
    docs = [d for p in paths for d in read_local(p) if isinstance(d, SourceDocument)]
    settings = CorpusSettings("auto", CleaningConfig(), ChaptersConfig())
    for _ in process_corpus(docs, settings, [TOKENIZER], None, workers):
        pass
    return time.perf_counter() - started


def processing_floor(paths: list[Path], workers: int) -> float:
    """Seconds for `build_stage` with cleaning, detection and the prepass already done.

    Diagnostic only: the forked workers inherit a `process_document` that hands back the
    book computed beforehand, so they still read, count and return every book.
    """
    docs = [d for p in paths for d in read_local(p) if isinstance(d, SourceDocument)]
    settings = CorpusSettings("auto", CleaningConfig(), ChaptersConfig())
    lines = learn_corpus_lines(docs, settings.cleaning, None)
    done = {d.id: corpus_module.process_document(d, settings, lines[i]) for i, d in enumerate(docs)}

    def precomputed(
        doc: SourceDocument, settings: CorpusSettings, corpus_lines: frozenset[str] = frozenset()
    ) -> tuple[Book | None, BookReport]:
        return done[doc.id]

    real_process, real_learn = corpus_module.process_document, corpus_module.learn_corpus_lines
    corpus_module.process_document = precomputed
    corpus_module.learn_corpus_lines = lambda documents, *_: [frozenset()] * len(documents)
    try:
        return build_stage(paths, workers)
    finally:
        corpus_module.process_document = real_process
        corpus_module.learn_corpus_lines = real_learn


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", type=Path)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--floor", action="store_true", help="also time processing_floor")
    args = parser.parse_args()
    folders = args.folders or [SHARED / "zh_simplified_four_classics", SHARED / "en_pg_stripped"]
    items = [d for f in folders for d in read_local(f)]
    failures = [d for d in items if isinstance(d, SourceFailure)]
    if failures:
        raise SystemExit(f"cannot read: {failures}")
    docs = [d for d in items if isinstance(d, SourceDocument)]
    texts = [d.text for d in docs]
    megabytes = sum(f.stat().st_size for folder in folders for f in folder.iterdir()) / 1e6
    get_tokenizer(TOKENIZER)  # both sides start with the tokenizer loaded
    ours, bare, bare_by_length, floor = [], [], [], []
    for _ in range(args.rounds):
        bare.append(bare_tokenizer(texts, args.workers, estimated_cost))
        bare_by_length.append(bare_tokenizer(texts, args.workers, len))
        ours.append(build_stage(folders, args.workers))
        if args.floor:
            floor.append(processing_floor(folders, args.workers))
    b, o = statistics.median(bare), statistics.median(ours)
    b_length = statistics.median(bare_by_length)
    print(
        f"corpus: {megabytes:.1f} MB in {len(docs)} books; {args.workers} workers; "
        f"{args.rounds} rounds (median)"
    )
    print(f"bare tokenizer ({TOKENIZER}): {b:.2f} s  {megabytes / b:6.1f} MB/s")
    print(f"build stage:                 {o:.2f} s  {megabytes / o:6.1f} MB/s")
    print(f"ratio build/bare throughput: {b / o:.2f}  (goal >= 0.80)")
    # The baseline before November 2026 split texts by length, which leaves the
    # workers unbalanced (Chinese costs ~4x more per character): printed for comparison.
    print(f"  (bare split by length, older baseline: {b_length:.2f} s, ratio {b_length / o:.2f})")
    if floor:
        f = statistics.median(floor)
        print(
            f"floor, cleaning and detection precomputed: {f:.2f} s, ratio {b / f:.2f}; "
            f"they add {o - f:.2f} s of the build's {o:.2f} s"
        )


if __name__ == "__main__":
    main()
