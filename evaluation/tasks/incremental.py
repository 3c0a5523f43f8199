"""Incremental context: one book prefix grown in fixed token steps, each step a sample.

There is no reference: the answers (summaries of the growing prefix) are generated,
outcome-classified and kept in generations.jsonl for the analyses (what a summary
gains and loses as the context grows), and never scored. The prompts are the summary
task's own wording, so the series is comparable with the summary subsets.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import ClassVar

from lengthwise.evaluation.outcomes import is_empty
from lengthwise.evaluation.prompts import BUILTIN_TEMPLATES, Fields
from lengthwise.evaluation.samples import EvalSample
from lengthwise.evaluation.tasks.base import AnswerScore, EvalTask


class IncrementalTask(EvalTask):
    family: ClassVar[str] = "incremental"
    metric: ClassVar[str] = "none (generated for analyses, unscorable)"
    baseline: ClassVar[str] = "none (no reference)"

    def templates(self) -> Mapping[str, Mapping[str, str]]:
        return BUILTIN_TEMPLATES

    def fields(self, sample: EvalSample) -> Fields:
        return ()

    def score(self, text: str, sample: EvalSample) -> AnswerScore:
        return AnswerScore(None, readable=not is_empty(text))

    def random_answer(self, sample: EvalSample, rng: random.Random) -> str:
        return ""

    def random_baseline(self, samples: object, seed: int) -> float | None:
        return None
