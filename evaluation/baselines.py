"""Reference points beside models: `--backend baseline --model lead-N|random-N|drafts`.

- ``lead-N``: the first N sentences of the context;
- ``random-N``: N sentences drawn without replacement, kept in context order; the draw
  is seeded by (run seed, sample id), so a run is deterministic;
- ``drafts``: the release's chapter drafts (column ``chapter_drafts``) merged in order,
  the oracle-free extractive or LLM drafts annotators start from; only when the release
  ships them.

Sentences come from the project's splitter (lengthwise.text.segment.sentences), zh and
en. Answers are capped at the request's max new tokens, counted with the run's counting
tokenizer, as a model's output would be (whole sentences first; the cap is then flagged
``hit_max_tokens`` like a model stopped at its limit). A baseline never reads the
prompt's instruction, only the sample; it runs through the same planning, request
cache, outcomes, scoring and report as a model.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from lengthwise.errors import UserError
from lengthwise.evaluation.samples import EvalSample, ReleaseData
from lengthwise.llm.batch import run_batch
from lengthwise.llm.types import ChatRequest, ChatResult, ResultCallback, Usage
from lengthwise.spec import LLMRoleConfig
from lengthwise.text.segment import sentences

BASELINE_VERSION: Final = "baseline-v1"
_NAME = re.compile(r"^(lead|random)-([1-9][0-9]{0,2})$|^drafts$")
Kind = Literal["lead", "random", "drafts"]


@dataclass(frozen=True)
class Baseline:
    kind: Kind
    n: int = 0  # sentences (lead, random)

    @property
    def name(self) -> str:
        return self.kind if self.kind == "drafts" else f"{self.kind}-{self.n}"

    def describe(self) -> str:
        return {
            "lead": f"the first {self.n} sentences of the context",
            "random": f"{self.n} seeded random sentences of the context, in context order",
            "drafts": "the release's chapter drafts, merged in chapter order",
        }[self.kind]


def parse_baseline(name: str) -> Baseline:
    """`lead-3`, `random-5`, `drafts`; anything else is a ValueError saying what is valid."""
    match = _NAME.match(name.strip())
    if match is None:
        raise UserError(
            f"--model {name!r}: a baseline is lead-N (first N sentences), random-N (N seeded "
            "random sentences) or drafts (the release's chapter drafts), N from 1 to 999"
        )
    if match.group(1) is None:
        return Baseline("drafts")
    kind: Kind = "lead" if match.group(1) == "lead" else "random"
    return Baseline(kind, int(match.group(2)))


def is_baseline_name(name: str) -> bool:
    return _NAME.match(name.strip()) is not None


def baseline_revision(name: str) -> str:
    """Keys cached answers to this algorithm's version (a change re-runs, never reuses)."""
    return f"{BASELINE_VERSION}:{parse_baseline(name).name}"


def _joiner(language: str) -> str:
    return "" if language == "zh" else " "


def _seeded_rng(seed: int, sample_id: str) -> random.Random:
    digest = hashlib.sha256(f"{seed}\0{sample_id}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def baseline_sentences(baseline: Baseline, sample: EvalSample, seed: int) -> list[str]:
    """The answer's sentences before the length cap."""
    if baseline.kind == "drafts":
        if sample.drafts is None:
            raise UserError(
                f"sample {sample.id}: the release ships no chapter drafts (column "
                "`chapter_drafts`), so the drafts baseline cannot run on it"
            )
        return [d.strip() for d in sample.drafts if d.strip()]
    found = sentences(sample.context, sample.language)
    if baseline.kind == "lead":
        return found[: baseline.n]
    if len(found) <= baseline.n:
        return found
    picked = sorted(_seeded_rng(seed, sample.id).sample(range(len(found)), baseline.n))
    return [found[i] for i in picked]


def cap_tokens(
    parts: Sequence[str], language: str, max_tokens: int, count: Callable[[str], int]
) -> tuple[str, bool]:
    """(answer, capped): whole parts while they fit `max_tokens`, then a cut inside the
    next one (by characters, the largest prefix that fits)."""
    joiner, kept = _joiner(language), list[str]()
    for part in parts:
        candidate = joiner.join([*kept, part])
        if count(candidate) <= max_tokens:
            kept.append(part)
            continue
        low, high = 0, len(part)
        while low < high:  # largest prefix of `part` that still fits
            middle = (low + high + 1) // 2
            if count(joiner.join([*kept, part[:middle]])) <= max_tokens:
                low = middle
            else:
                high = middle - 1
        return joiner.join([*kept, part[:low]]).strip(), True
    return joiner.join(kept), False


class BaselineClient:
    """An `LLMClient` whose answers are baselines of the request's sample."""

    def __init__(
        self,
        baseline: Baseline,
        samples: Mapping[str, EvalSample],
        count: Callable[[str], int],
        seed: int,
    ) -> None:
        self.baseline = baseline
        self.samples = samples
        self.count = count
        self.seed = seed

    @property
    def name(self) -> str:
        return f"baseline:{self.baseline.name}"

    def complete(self, request: ChatRequest) -> ChatResult:
        sample_id = dict(request.metadata).get("sample")
        sample = self.samples.get(sample_id or "")
        if sample is None:
            raise ValueError(f"baseline request for unknown sample {sample_id!r}")
        parts = baseline_sentences(self.baseline, sample, self.seed)
        text, capped = cap_tokens(parts, sample.language, request.max_tokens, self.count)
        return ChatResult(
            text=text,
            outcome="length" if capped else "ok",
            usage=Usage(0, self.count(text) if text else 0),
            model=self.name,
        )

    def complete_many(
        self, requests: Sequence[ChatRequest], *, on_result: ResultCallback | None = None
    ) -> list[ChatResult]:
        return run_batch(requests, self.complete, concurrency=1, on_result=on_result)


def build(
    config: LLMRoleConfig,
    *,
    samples: Mapping[str, EvalSample],
    count: Callable[[str], int],
    seed: int,
) -> BaselineClient:
    """The registry's `baseline` provider: `config.model` names the baseline (lead-3...)."""
    return BaselineClient(parse_baseline(config.model), samples, count, seed)


def check_baseline(name: str, release: ReleaseData) -> None:
    """Fail before anything runs: a bad name, or `drafts` on a release without drafts."""
    baseline = parse_baseline(name)
    samples = [s for rows in release.subsets.values() for s in rows]
    if baseline.kind == "drafts" and not any(s.drafts for s in samples):
        raise UserError(
            f"release {release.identity.get('path', '')}: no chapter drafts shipped (column "
            "`chapter_drafts`), so `--model drafts` cannot run; use lead-N or random-N"
        )
