"""All summary-based statistics of one (source, summary) pair, and of many in parallel.

Each text is segmented once and the source indexed once; every statistic reads those.
Pairs are spread over an executor's workers (local processes, or Ray tasks; see
lengthwise.executors) grouped by book, so that lines shared by overlapping samples of
one book hit the same worker's segmentation cache. The statistics of a pair do not
depend on where it runs, so outputs are identical whichever executor computes them.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from lengthwise.executors import ExecutorConfig, make_executor
from lengthwise.json_records import JsonRecord
from lengthwise.releases.stats.compression import ratio
from lengthwise.releases.stats.fragments import coverage_density, greedy_fragments
from lengthwise.releases.stats.ngrams import novel_ngram_shares_tokens
from lengthwise.releases.stats.redundancy import redundancy_of_sentences
from lengthwise.releases.stats.stats_record import Description
from lengthwise.releases.stats.token_index import TokenIndex
from lengthwise.releases.stats.uniformity import uniformity_tokens
from lengthwise.text import rouge_tokens, segmenter_name, sentences, words

# The figures reported per subset, in report order.
METRICS = (
    "uniformity",
    "compression_tokens",
    "compression_sentences",
    "coverage",
    "density",
    "novel_1gram",
    "novel_2gram",
    "novel_3gram",
    "novel_4gram",
    "redundancy",
)


@dataclass(frozen=True)
class PairInput:
    id: str
    group: str  # samples of one group (book) go to the same worker
    lang: str
    source: str
    summary: str


@dataclass(frozen=True)
class PairSkipped(JsonRecord):
    """A pair without statistics, and why."""

    error: str


@dataclass(frozen=True)
class PairStatistics(JsonRecord):
    """Every summary statistic of one (source, summary) pair (a row of stats/samples.jsonl)."""

    source_words: int
    summary_words: int
    source_sentences: int
    summary_sentences: int
    uniformity: float | None
    compression_tokens: float
    compression_sentences: float
    coverage: float
    density: float
    novel_1gram: float | None
    novel_2gram: float | None
    novel_3gram: float | None
    novel_4gram: float | None
    redundancy: float

    def metric(self, name: str) -> float | None:
        """The figure `name` (one of METRICS)."""
        value: float | None = getattr(self, name)
        return value


PairResult = PairStatistics | PairSkipped


def pair_statistics(source: str, summary: str, lang: str) -> PairResult:
    """Every summary statistic of one pair; skipped when the summary has no words."""
    summary_words = words(summary, lang)
    summary_sentences = sentences(summary, lang)
    if not summary_words or not summary_sentences:
        return PairSkipped("summary has no words")
    source_words = words(source, lang)
    index = TokenIndex(source_words)
    coverage, density = coverage_density(greedy_fragments(summary_words, index), len(summary_words))
    novel = novel_ngram_shares_tokens(summary_words, index, 4)
    source_sentence_count = len(sentences(source, lang))
    return PairStatistics(
        source_words=len(source_words),
        summary_words=len(summary_words),
        source_sentences=source_sentence_count,
        summary_sentences=len(summary_sentences),
        uniformity=uniformity_tokens(source_words, summary_words, index=index),
        compression_tokens=ratio(len(source_words), len(summary_words), "words"),
        compression_sentences=ratio(source_sentence_count, len(summary_sentences), "sentences"),
        coverage=coverage,
        density=density,
        novel_1gram=novel[1],
        novel_2gram=novel[2],
        novel_3gram=novel[3],
        novel_4gram=novel[4],
        redundancy=redundancy_of_sentences(
            [rouge_tokens(s, lang, segmenter="auto") for s in summary_sentences]
        ),
    )


def pair_group_statistics(pairs: Sequence[PairInput]) -> list[tuple[str, PairResult]]:
    """(id, statistics) of each pair of one group: one executor call."""
    return [(p.id, pair_statistics(p.source, p.summary, p.lang)) for p in pairs]


def _balanced_groups(pairs: Sequence[PairInput], parts: int) -> list[list[PairInput]]:
    """Whole groups assigned to `parts` bins, largest first, by total source length."""
    by_group: dict[str, list[PairInput]] = defaultdict(list)
    for pair in pairs:
        by_group[pair.group].append(pair)
    bins: list[list[PairInput]] = [[] for _ in range(parts)]
    loads = [0] * parts
    for members in sorted(by_group.values(), key=lambda m: -sum(len(p.source) for p in m)):
        target = loads.index(min(loads))
        bins[target] += members
        loads[target] += sum(len(p.source) for p in members)
    return [b for b in bins if b]


def compute_pairs(
    pairs: Sequence[PairInput],
    workers: int | None = None,
    executor: ExecutorConfig | None = None,
) -> Iterator[tuple[str, PairResult]]:
    """(id, statistics) for every pair, on `executor` (default local processes).

    The local executor computes a handful of pairs in this process (a pool would cost
    more); Ray always gets the work it was asked to do.
    """
    runner = make_executor(executor, workers)
    if runner.kind == "local" and (runner.workers <= 1 or len(pairs) < 4):
        yield from pair_group_statistics(pairs)
        return
    # Load the segmenter before forking so that workers inherit it instead of loading
    # the dictionary once each.
    if runner.inherits_memory and any(p.lang == "zh" for p in pairs):
        segmenter_name()
        words("预热", "zh")
    # Several bins per worker keep all busy when one book is much longer than the rest.
    groups = _balanced_groups(pairs, runner.workers * 4)
    for results in runner.run_ordered(pair_group_statistics, [(group,) for group in groups]):
        yield from results


def describe(values: Sequence[float]) -> Description:
    """n, mean, median, min, max of the finite values (None fields when there are none)."""
    finite = [v for v in values if v is not None and math.isfinite(v)]
    if not finite:
        return {"n": 0, "mean": None, "median": None, "min": None, "max": None}
    return {
        "n": len(finite),
        "mean": statistics.fmean(finite),
        "median": statistics.median(finite),
        "min": min(finite),
        "max": max(finite),
    }


def aggregate(rows: Sequence[PairResult]) -> dict[str, Description]:
    """Per-metric descriptions over the pairs that have statistics."""
    good = [r for r in rows if isinstance(r, PairStatistics)]
    return {
        metric: describe([v for r in good if (v := r.metric(metric)) is not None])
        for metric in METRICS
    }
