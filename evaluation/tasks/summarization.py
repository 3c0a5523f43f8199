"""Summarization (CNNSum): the release's summary subsets, IB/IE prompts, ROUGE-L.

The first task on the abstraction, with the evaluator's results unchanged: the
templates are the built-in IB/IE (or a user's prompt file, CNNSum's prompts.json as
is), the score is `--metric` (ROUGE-L by default) against the human summary, and a
row without a summary is generated but not scored. An answer is "readable" when it is
not empty (a summary has no format to check); the prompt shows no example. The random
guess is three seeded random sentences of the context drawn exactly as the `random-3`
baseline draws them (same seed, same sentences), so the two agree on the same samples.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import ClassVar

from lengthwise.evaluation.metrics import Metric, rouge_l
from lengthwise.evaluation.outcomes import is_empty
from lengthwise.evaluation.planning import DEFAULT_MAX_NEW_TOKENS, FALLBACK_MAX_NEW_TOKENS
from lengthwise.evaluation.prompts import BUILTIN_TEMPLATES, Fields, PromptTemplate, select_prompts
from lengthwise.evaluation.samples import EvalSample
from lengthwise.evaluation.tasks.base import AnswerScore, EvalTask
from lengthwise.text.segment import sentences

RANDOM_SENTENCES = 3


class SummarizationTask(EvalTask):
    family: ClassVar[str] = "summarization"
    metric: ClassVar[str] = "ROUGE-L F1"
    baseline: ClassVar[str] = f"{RANDOM_SENTENCES} seeded random sentences of the context"
    baseline_draws: ClassVar[int] = 1

    def __init__(
        self, *, judge: bool = False, metric: Metric = rouge_l, prompt_file: Path | None = None
    ) -> None:
        super().__init__(judge=judge)
        self.scorer = metric
        self.prompt_file = prompt_file

    def templates(self) -> Mapping[str, Mapping[str, str]]:
        return BUILTIN_TEMPLATES

    def prompts(self, names: Sequence[str]) -> list[PromptTemplate]:
        return select_prompts(names, self.prompt_file)

    def fields(self, sample: EvalSample) -> Fields:
        return ()  # CNNSum-style templates: the context and nothing else

    def max_new_tokens(self, sample: EvalSample) -> int:
        return DEFAULT_MAX_NEW_TOKENS.get(sample.length_name, FALLBACK_MAX_NEW_TOKENS)

    def score(self, text: str, sample: EvalSample) -> AnswerScore:
        value = (
            None
            if sample.reference is None
            else self.scorer(text, sample.reference, sample.language)
        )
        return AnswerScore(value, readable=not is_empty(text))

    def random_baseline(self, samples: Sequence[EvalSample], seed: int) -> float | None:
        """The `random-3` baseline's mean score on `samples` (its draw, seeded by the run
        seed and the sample id), over the samples with a reference; None without any."""
        from lengthwise.evaluation.baselines import Baseline, baseline_sentences

        draw = Baseline("random", RANDOM_SENTENCES)
        values = [
            self.scorer(
                ("" if s.language == "zh" else " ").join(baseline_sentences(draw, s, seed)),
                s.reference,
                s.language,
            )
            for s in samples
            if s.reference is not None
        ]
        return sum(values) / len(values) if values else None

    def random_answer(self, sample: EvalSample, rng: random.Random) -> str:
        found = sentences(sample.context, sample.language)
        picked = sorted(rng.sample(range(len(found)), min(RANDOM_SENTENCES, len(found))))
        return ("" if sample.language == "zh" else " ").join(found[i] for i in picked)
