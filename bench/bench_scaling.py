"""Build a large corpus on `local` and on `ray` (1 and 2 workers): throughput, efficiency.

The shared corpora (zh classics + en novels) are replicated into --books books with
distinct file names (so distinct ids), each a contiguous slice (--fraction of a source
book's lines) whose body lines have --perturb of their characters replaced by other
characters of the same book (headings, short lines, kept), so duplicate detection does
not collapse the copies. Everything is generated under a temporary folder, never in
the repository. Each configuration builds into a fresh work dir (cold caches) with the
same spec; Ray is started before the clock runs (its start-up is reported apart) and
the sample files of every run must equal the first run's.

Usage: python bench/bench_scaling.py [--books 500] [--fraction 0.2] [--corpora DIR]
"""

from __future__ import annotations

import argparse
import hashlib
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from lengthwise.builders.build import run_build
from lengthwise.spec import load_spec

SPEC = """name = "scaling"
language = "auto"
seed = 1
[[sources]]
kind = "files"
path = "corpus"
[tokenizers]
primary = "qwen2.5"
extra = []
[executor]
kind = "{kind}"
workers = {workers}
[[subsets]]
name = "L"
target = 16384
lower = 13000
upper = 18432
count = 200
[[subsets]]
name = "XL"
target = 32768
lower = 27000
upper = 34816
count = 100
"""


def perturbed(text: str, rng: np.random.Generator, share: float) -> str:
    """`text` with `share` of the characters of lines >= 40 chars replaced (numpy, fast)."""
    codes = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32).copy()
    newline = codes == ord("\n")
    line_id = np.concatenate(([0], np.cumsum(newline)[:-1]))
    long_line = np.bincount(line_id)[line_id] >= 40
    chosen = long_line & ~newline & (rng.random(codes.size) < share)
    donors = codes[rng.integers(0, codes.size, int(chosen.sum()))]
    codes[chosen] = np.where(donors == ord("\n"), codes[chosen], donors)
    return codes.tobytes().decode("utf-32-le")


def write_corpus(
    sources: list[Path], folder: Path, books: int, fraction: float, share: float
) -> int:
    rng = np.random.default_rng(17)
    texts = [p.read_text(encoding="utf-8") for p in sources]
    total = 0
    for k in range(books):
        index = k % len(sources)
        lines = texts[index].splitlines(keepends=True)
        span = max(50, int(len(lines) * fraction))
        start = int(rng.integers(0, max(1, len(lines) - span)))
        text = perturbed("".join(lines[start : start + span]), rng, share)
        data = text.encode("utf-8")
        (folder / f"{sources[index].stem}-{k:04d}.txt").write_bytes(data)
        total += len(data)
    return total


def run(root: Path, kind: str, workers: int) -> dict[str, Any]:
    spec_file = root / f"{kind}-{workers}.toml"
    spec_file.write_text(SPEC.format(kind=kind, workers=workers), encoding="utf-8")
    spec = load_spec(spec_file)
    ray_seconds = 0.0
    if kind == "ray":
        import ray

        started = time.perf_counter()
        ray.init(
            address="local",
            num_cpus=workers,
            include_dashboard=False,
            _node_ip_address="127.0.0.1",
            log_to_driver=False,
        )
        ray_seconds = time.perf_counter() - started
    try:
        started = time.perf_counter()
        result = run_build(spec, root / f"work-{kind}-{workers}", progress=False, workers=workers)
        seconds = time.perf_counter() - started
    finally:
        if kind == "ray":
            ray.shutdown()
    report = result.report  # the typed build report (builders/build_record.py)
    corpus_seconds = report.stages["corpus"]["seconds"]
    samples = b"".join(p.read_bytes() for p in sorted((result.work.samples).glob("*.parquet")))
    books = len(report.books)
    return {
        "config": f"{kind} x{workers}",
        "workers": workers,
        "seconds": seconds,
        "corpus_seconds": corpus_seconds,
        "ray_start": ray_seconds,
        "books": books,
        "kept": sum(1 for b in report.books if b.excluded is None),
        "duplicates": len(report.duplicates["clusters"]),
        "samples_sha": hashlib.sha256(samples).hexdigest()[:16],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--books", type=int, default=500)
    parser.add_argument("--fraction", type=float, default=0.2)
    parser.add_argument("--perturb", type=float, default=0.12)
    parser.add_argument(
        "--corpora", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "corpora"
    )
    args = parser.parse_args()
    sources = sorted((args.corpora / "zh_simplified_four_classics").glob("*.txt"))
    sources += sorted((args.corpora / "en_pg_stripped").glob("*.txt"))
    with tempfile.TemporaryDirectory(prefix="lw-scaling-") as tmp:
        root = Path(tmp)
        (root / "corpus").mkdir()
        size = write_corpus(sources, root / "corpus", args.books, args.fraction, args.perturb)
        print(f"{args.books} books, {size / 1e6:.1f} MB generated in {root}")
        rows = [
            run(root, kind, w) for kind, w in (("local", 1), ("local", 2), ("ray", 1), ("ray", 2))
        ]
    base = {r["config"].split()[0]: r for r in rows if r["workers"] == 1}
    print("| run | build s | corpus s | books/s (corpus) | MB/s | efficiency | Ray start s |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        one = base[r["config"].split()[0]]
        efficiency = one["corpus_seconds"] / (r["corpus_seconds"] * r["workers"])
        print(
            f"| {r['config']} | {r['seconds']:.1f} | {r['corpus_seconds']:.1f} | "
            f"{r['books'] / r['corpus_seconds']:.1f} | {size / 1e6 / r['corpus_seconds']:.1f} | "
            f"{efficiency:.2f} | {r['ray_start']:.1f} |"
        )
    per_book = base["local"]["corpus_seconds"] / args.books * 1000
    print(f"per book (local x1 corpus stage): {per_book:.0f} ms; kept {rows[0]['kept']} of")
    print(f"{rows[0]['books']} books, duplicate clusters {rows[0]['duplicates']}")
    shas = {r["samples_sha"] for r in rows}
    print("samples identical across runs:", "yes" if len(shas) == 1 else f"NO {shas}")


if __name__ == "__main__":
    main()
