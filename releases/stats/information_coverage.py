"""Information coverage (IC), ETHIC's protocol, with any `LLMClient` as the judge.

For each sample of a seeded subset sample (default 50 per subset): cut the context
into chunks of at most 512 primary-tokenizer tokens (`chunking.chunk_text`), ask the
judge for each chunk whether it must be taken into account to carry out the task
(summarise the whole text), and parse its final score line strictly
(`judge_prompts.parse_verdict`). IC(sample) = mean verdict over its parseable chunks;
a sample with no parseable chunk has no IC and is counted, not scored.
IC(subset) = mean over samples with an IC, with a 95% percentile-bootstrap interval
(10,000 resamples of the samples, numpy generator seeded with the spec seed; no
interval with fewer than two samples). Unparseable answers and failed calls (outcome
error, blocked or over_length) are counted separately; an answer cut at max_tokens
(outcome length) is parsed like any other and also counted as cut.

All judge calls go through `judge.complete_many`, so the client's request cache and
concurrency apply: a rerun makes no new call for a finished chunk.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from lengthwise.llm.types import ChatRequest, LLMClient
from lengthwise.releases.stats.chunking import DEFAULT_CHUNK_TOKENS, chunk_text
from lengthwise.releases.stats.judge_prompts import PROMPT_VERSION, judge_prompt, parse_verdict
from lengthwise.releases.stats.stats_record import ICComputed, ICNotComputed, SampleCoverageJson
from lengthwise.tokenizers import Tokenizer

DEFAULT_IC_SAMPLES = 50
BOOTSTRAP_RESAMPLES = 10_000
NO_JUDGE_REASON = "no judge model configured ([llm.judge] in the spec)"


@dataclass(frozen=True)
class ICSample:
    id: str
    text: str
    lang: str


@dataclass
class SampleCoverage:
    id: str
    chunks: int
    verdicts: list[int | None] = field(default_factory=list)  # None: no usable verdict
    outcomes: Counter[str] = field(default_factory=Counter)  # "parsed", "unparseable", ...
    cut: int = 0  # answers cut at max_tokens (parsed or not)

    @property
    def ic(self) -> float | None:
        parsed = [v for v in self.verdicts if v is not None]
        return sum(parsed) / len(parsed) if parsed else None

    def to_dict(self) -> SampleCoverageJson:
        return {
            "id": self.id,
            "chunks": self.chunks,
            "ic": self.ic,
            "verdicts": "".join("-" if v is None else str(v) for v in self.verdicts),
            "outcomes": dict(sorted(self.outcomes.items())),
            "cut_at_max_tokens": self.cut,
        }


def not_computed(reason: str) -> ICNotComputed:
    return {"computed": False, "reason": reason}


def pick_samples(ids: Sequence[str], count: int, seed: int, subset: str) -> list[str]:
    """A seeded, order-independent choice of `count` ids (all when there are fewer)."""
    ordered = sorted(set(ids))
    if count >= len(ordered):
        return ordered
    return sorted(random.Random(f"ic:{seed}:{subset}").sample(ordered, count))


def bootstrap_interval(
    values: Sequence[float], seed: int, resamples: int = BOOTSTRAP_RESAMPLES
) -> tuple[float, float] | None:
    """95% percentile-bootstrap interval of the mean (None with fewer than two values)."""
    if len(values) < 2:
        return None
    data = np.asarray(values, dtype=np.float64)
    rng = np.random.default_rng(seed)
    means = data[rng.integers(0, data.size, size=(resamples, data.size))].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return float(low), float(high)


def judge_requests(
    sample: ICSample,
    tokenizer: Tokenizer,
    options: Mapping[str, Any],
    chunk_tokens: int = DEFAULT_CHUNK_TOKENS,
) -> list[ChatRequest]:
    """One judge request per chunk of the sample's context."""
    chunks = chunk_text(sample.text, tokenizer, chunk_tokens)
    return [
        ChatRequest.of(
            None,
            judge_prompt(chunk, sample.lang, number, len(chunks)),
            prompt_version=PROMPT_VERSION,
            metadata=(("sample", sample.id), ("chunk", str(number))),
            **options,
        )
        for number, chunk in enumerate(chunks, start=1)
    ]


def information_coverage(
    samples: Sequence[ICSample],
    judge: LLMClient,
    tokenizer: Tokenizer,
    *,
    seed: int = 0,
    chunk_tokens: int = DEFAULT_CHUNK_TOKENS,
    request_options: Mapping[str, Any] | None = None,
) -> ICComputed:
    """IC of `samples` (already chosen, e.g. with `pick_samples`) judged by `judge`.

    `request_options` are ChatRequest fields (max_tokens, temperature, seed); by default
    greedy decoding with 512 new tokens, room for the reasoning before the verdict.
    """
    options = {"max_tokens": 512, "temperature": 0.0, "seed": 0} | dict(request_options or {})
    per_sample = [judge_requests(s, tokenizer, options, chunk_tokens) for s in samples]
    flat = [request for requests in per_sample for request in requests]
    results = judge.complete_many(flat) if flat else []
    coverages: list[SampleCoverage] = []
    cached = 0
    position = 0
    for sample, requests in zip(samples, per_sample, strict=True):
        coverage = SampleCoverage(sample.id, len(requests))
        for result in results[position : position + len(requests)]:
            cached += result.cached
            # An answer cut at max_tokens is still an answer: parsed like any other (it
            # almost never ends in a verdict line), and counted as cut.
            coverage.cut += result.outcome == "length"
            if result.outcome not in ("ok", "length"):
                coverage.verdicts.append(None)
                coverage.outcomes[f"failed_{result.outcome}"] += 1
                continue
            verdict = parse_verdict(result.text, sample.lang)
            coverage.verdicts.append(verdict)
            coverage.outcomes["parsed" if verdict is not None else "unparseable"] += 1
        position += len(requests)
        coverages.append(coverage)
    return summarise_coverage(coverages, seed, judge_name=judge.name, cached_calls=cached)


def summarise_coverage(
    coverages: Sequence[SampleCoverage], seed: int, *, judge_name: str, cached_calls: int
) -> ICComputed:
    """The IC entry of a subset's report: mean, interval, counts, per-sample values."""
    scores = [c.ic for c in coverages if c.ic is not None]
    totals: Counter[str] = Counter()
    for coverage in coverages:
        totals.update(coverage.outcomes)
    interval = bootstrap_interval(scores, seed)
    return {
        "computed": True,
        "judge": judge_name,
        "prompt_version": PROMPT_VERSION,
        "samples": len(coverages),
        "samples_with_ic": len(scores),
        "samples_without_verdict": len(coverages) - len(scores),
        "chunks": sum(c.chunks for c in coverages),
        "verdicts": dict(sorted(totals.items())),
        "unparseable": totals["unparseable"],
        "answers_cut_at_max_tokens": sum(c.cut for c in coverages),
        "judge_calls": sum(c.chunks for c in coverages),
        "cached_calls": cached_calls,
        "mean": sum(scores) / len(scores) if scores else None,
        "ci95": list(interval) if interval else None,
        "interval_method": (
            f"percentile bootstrap over samples, {BOOTSTRAP_RESAMPLES} resamples, seed {seed}"
        ),
        "per_sample": [c.to_dict() for c in coverages],
    }
