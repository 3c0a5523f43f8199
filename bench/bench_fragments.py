"""Extractive fragments: fast algorithm vs Newsroom's straightforward one, and release scale.

Usage (from the repository root):

    .venv/bin/python bench/bench_fragments.py            # fragments on real-length inputs
    .venv/bin/python bench/bench_fragments.py --release  # + all non-IC stats, 700 samples

Inputs come from ../shared/corpora (or $LENGTHWISE_SHARED_CORPORA): a 150k-character
slice of 红楼梦 (about 125k Qwen2.5 tokens, the 3XL length) and a 128k-word slice of
War and Peace, each with a summary of about 500 words made of sentences taken from
across the source, half of them with words dropped and reordered (so fragments of
every length occur). Both algorithms must return identical fragments; the speed ratio
is printed.

`--release` times every statistic except IC on a synthetic 700-sample zh release with
CNNSum's subset sizes and lengths (190 x 20k, 195 x 40k, 200 x 80k, 110 x 155k
characters, slices of the four classics) and 500-character summaries, on all cores.
Each sample's lines carry a sample-specific mark so that the line segmentation cache
cannot make reused text look faster than a release of distinct books would be.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
CORPORA = Path(os.environ.get("LENGTHWISE_SHARED_CORPORA", REPO_ROOT.parent / "shared" / "corpora"))

from lengthwise.releases.stats.fragments import (  # noqa: E402
    greedy_fragments,
    greedy_fragments_reference,
)
from lengthwise.releases.stats.summary_stats import PairInput, compute_pairs  # noqa: E402
from lengthwise.releases.stats.token_index import TokenIndex  # noqa: E402
from lengthwise.text import sentences, words  # noqa: E402


def make_summary(source: str, lang: str, target_words: int, rng: random.Random) -> str:
    """Sentences from across the source; every other one shortened and reordered."""
    pool = sentences(source, lang)
    picked: list[str] = []
    count = 0
    while count < target_words:
        sentence = pool[rng.randrange(len(pool))]
        if len(picked) % 2:
            tokens = words(sentence, lang)
            keep = [t for t in tokens if rng.random() > 0.3]
            if len(keep) > 3:
                i = rng.randrange(len(keep) - 1)
                keep[i], keep[i + 1] = keep[i + 1], keep[i]
            sentence = ("" if lang == "zh" else " ").join(keep) + ("。" if lang == "zh" else ".")
        picked.append(sentence)
        count += len(words(sentence, lang))
    return ("" if lang == "zh" else " ").join(picked)


def compare(name: str, source: str, lang: str, rng: random.Random) -> None:
    summary_tokens = words(make_summary(source, lang, 500, rng), lang)
    source_tokens = words(source, lang)
    started = time.perf_counter()
    fast = greedy_fragments(summary_tokens, TokenIndex(source_tokens))
    fast_seconds = time.perf_counter() - started
    started = time.perf_counter()
    reference = greedy_fragments_reference(summary_tokens, source_tokens)
    reference_seconds = time.perf_counter() - started
    assert fast == reference, f"{name}: fragments differ"
    lengths = sorted((f.length for f in fast), reverse=True)
    print(
        f"{name}: source {len(source_tokens):,} words, summary {len(summary_tokens)} words, "
        f"{len(fast)} fragments (longest {lengths[:3]}); identical results\n"
        f"  reference {reference_seconds:.2f} s, fast {fast_seconds * 1000:.0f} ms "
        f"(index included): {reference_seconds / fast_seconds:.0f}x faster"
    )


def release_scale(rng: random.Random, workers: int) -> None:
    folder = CORPORA / "zh_simplified_four_classics"
    books = [p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.txt"))]
    plan = [("L", 190, 20_000), ("XL", 195, 40_000), ("2XL", 200, 80_000), ("3XL", 110, 155_000)]
    pairs: list[PairInput] = []
    for subset, count, chars in plan:
        for k in range(count):
            book = books[k % len(books)]
            start = rng.randrange(0, len(book) - chars)
            mark = f"〔{subset}{k}〕"
            text = "\n".join(mark + line for line in book[start : start + chars].split("\n"))
            summary = make_summary(text[: chars // 2], "zh", 350, rng)[:500]
            pairs.append(PairInput(f"{subset}-{k}", f"{subset}-{k}", "zh", text, summary))
    total_chars = sum(len(p.source) for p in pairs)
    print(f"release: {len(pairs)} samples, {total_chars / 1e6:.1f} M source characters")
    children_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started, cpu_started = time.perf_counter(), time.process_time()
    results = dict(compute_pairs(pairs, workers))
    seconds = time.perf_counter() - started
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (time.process_time() - cpu_started) + (
        children.ru_utime + children.ru_stime - children_before.ru_utime - children_before.ru_stime
    )
    errors = sum("error" in r for r in results.values())
    print(
        f"  all statistics except IC: {seconds:.1f} s wall on {workers} worker(s), "
        f"{cpu:.1f} CPU seconds in all (the wall time on an otherwise idle machine is "
        f"about CPU / workers); {errors} samples without statistics; "
        f"load average now {os.getloadavg()[0]:.1f}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--release", action="store_true", help="also time a 700-sample release")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    if not CORPORA.is_dir():
        print(f"shared corpora not found at {CORPORA}", file=sys.stderr)
        return 1
    rng = random.Random(0)
    zh = (CORPORA / "zh_simplified_four_classics" / "hongloumeng_utf8.txt").read_text("utf-8")
    en = (CORPORA / "en_pg_stripped" / "war_and_peace.txt").read_text("utf-8")
    compare("zh 红楼梦 150k chars", zh[200_000:350_000], "zh", rng)
    en_words = en.split(" ")
    compare("en War and Peace 128k words", " ".join(en_words[100_000:228_000]), "en", rng)
    if args.release:
        release_scale(rng, args.workers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
