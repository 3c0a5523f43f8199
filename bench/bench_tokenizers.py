"""Token counting throughput (1 vs N worker processes) and characters per token.

Usage (from the repository root):

    .venv/bin/python bench/bench_tokenizers.py                 # zh classics, qwen2.5
    .venv/bin/python bench/bench_tokenizers.py --ids qwen2.5 tiktoken:cl100k_base
    .venv/bin/python bench/bench_tokenizers.py --efficiency    # CNNSum-style table

Each timing runs in a fresh interpreter, so tokenizer construction (once in the
parent for 1 worker, once per worker process otherwise) is part of the figure,
as it is for a pipeline run. No cache is used.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
CORPORA = Path(os.environ.get("LENGTHWISE_SHARED_CORPORA", REPO_ROOT.parent / "shared" / "corpora"))
PIECE_CHARS = 20_000  # about one chapter of a zh classic


def load_pieces(folder: Path) -> list[str]:
    """The folder's .txt files cut into chapter-sized pieces at line breaks."""
    pieces: list[str] = []
    for path in sorted(folder.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        start = 0
        while start < len(text):
            end = text.find("\n", start + PIECE_CHARS)
            end = len(text) if end == -1 else end + 1
            pieces.append(text[start:end])
            start = end
    return pieces


def time_one(corpus: str, ids: list[str], workers: int) -> dict[str, object]:
    """Count once in this process and report seconds and totals."""
    from lengthwise.storage import sha256_text
    from lengthwise.tokenizers import count_texts_detailed

    pieces = load_pieces(CORPORA / corpus)
    pairs = [(sha256_text(piece), piece) for piece in pieces]
    started = time.perf_counter()
    result = count_texts_detailed(pairs, ids, cache=None, workers=workers)
    seconds = time.perf_counter() - started
    return {
        "workers": workers,
        "seconds": round(seconds, 3),
        "texts": len(pieces),
        "characters": sum(len(p) for p in pieces),
        "bytes": sum(len(p.encode("utf-8")) for p in pieces),
        "tokens": {tid: sum(counts) for tid, counts in result.counts.items()},
    }


def efficiency_table(ids: list[str]) -> str:
    from lengthwise.tokenizers import efficiency_markdown, encoding_efficiency

    texts = {
        "zh": load_pieces(CORPORA / "zh_simplified_four_classics"),
        "en": load_pieces(CORPORA / "en_pg_stripped"),
    }
    return efficiency_markdown(encoding_efficiency(texts, ids, workers=2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="zh_simplified_four_classics")
    parser.add_argument("--ids", nargs="+", default=["qwen2.5"])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--efficiency", action="store_true")
    parser.add_argument("--single", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not CORPORA.is_dir():
        sys.exit(f"shared corpora not found at {CORPORA} (set LENGTHWISE_SHARED_CORPORA)")
    if args.single is not None:
        print(json.dumps(time_one(args.corpus, args.ids, args.single)))
        return
    if args.efficiency:
        print(efficiency_table(args.ids))
        return
    # Interleave the configurations so that load from other processes on the
    # machine spreads over all of them; report the best and the median run.
    runs: dict[int, list[dict[str, object]]] = {workers: [] for workers in args.workers}
    command = [sys.executable, __file__, "--corpus", args.corpus, "--ids", *args.ids]
    for _ in range(args.repeat):
        for workers in args.workers:
            output = subprocess.run(
                [*command, "--single", str(workers)], check=True, capture_output=True, text=True
            ).stdout
            runs[workers].append(json.loads(output))
    for workers, measured in runs.items():
        seconds = sorted(float(str(run["seconds"])) for run in measured)
        size_mb = int(str(measured[0]["bytes"])) / 1e6
        print(
            f"workers={workers}: best {seconds[0]:.2f} s ({size_mb / seconds[0]:.1f} MB/s), "
            f"median {statistics.median(seconds):.2f} s over {len(seconds)} runs; "
            f"{measured[0]['characters']:,} chars, tokens {measured[0]['tokens']}"
        )


if __name__ == "__main__":
    main()
