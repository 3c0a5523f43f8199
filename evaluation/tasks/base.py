"""What an evaluation task is: templates, an answer parser and scorer, a random guess.

A task family's module subclasses `EvalTask` and is registered by name in
lengthwise.evaluation.tasks.registry (imported lazily, like the model providers). The
runner gives every loaded sample (an `EvalSample`: a summary sample, or a
`TaskInstance` row of the release) to its family's task, which

- names its prompt templates (`templates`: prompt id -> language -> text with one
  ``{}`` for the context and ``{question}``, ``{example}``, ``{n}`` fields around it);
- reads and scores an answer (`score` -> `AnswerScore`): the primary score in [0, 1],
  whether the parser could read it (instruction following), whether it only repeats
  the example the prompt shows (copy-the-example), secondary metrics;
- answers at random (`random_answer`), so every table shows a random-guess baseline:
  the exact expectation where one is known (`expected_random`), else the mean score of
  seeded random answers (`baseline_draws` per sample).
"""

from __future__ import annotations

import hashlib
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from lengthwise.errors import UserError
from lengthwise.evaluation.prompts import Fields, PromptTemplate
from lengthwise.evaluation.samples import EvalSample


@dataclass(frozen=True)
class AnswerScore:
    """One answer, read and scored by its task."""

    score: float | None  # primary metric in [0, 1]; None: nothing to score against
    readable: bool  # the parser could read the answer in the asked format
    copied_example: bool = False  # the answer is the example shown in the prompt
    metrics: Mapping[str, float] = field(default_factory=dict)  # secondary, per answer
    parsed: tuple[str, ...] = ()  # what the parser read (labels, names, sections...)
    needs_judge: bool = False  # the score waits for the judge's verdict (qa, needles)


def instruction_templates(
    instruction: Mapping[str, str], cue: Mapping[str, str]
) -> dict[str, dict[str, str]]:
    """IB (instruction before the context) and IE (after it) per language: `{}` is the
    context, `{question}` the instance's question, `cue` opens the answer."""
    return {
        "IB": {
            lang: f"{text}\n\n{{}}\n\n{{question}}{cue[lang]}" for lang, text in instruction.items()
        },
        "IE": {
            lang: f"{{}}\n\n{{question}}{text}\n\n{cue[lang]}" for lang, text in instruction.items()
        },
    }


class EvalTask(ABC):
    """One family's prompts, parser, scorer and random guess."""

    family: ClassVar[str]
    metric: ClassVar[str]  # what `AnswerScore.score` is, for tables
    baseline: ClassVar[str]  # what the random guess does, for tables
    new_tokens: ClassVar[int] = 400  # default max new tokens of an answer
    baseline_draws: ClassVar[int] = 5  # random answers per sample when no closed form

    def __init__(self, *, judge: bool = False) -> None:
        self.judge = judge  # a judge model is configured for this run

    @abstractmethod
    def templates(self) -> Mapping[str, Mapping[str, str]]:
        """Prompt id -> language -> template."""

    @abstractmethod
    def score(self, text: str, sample: EvalSample) -> AnswerScore: ...

    @abstractmethod
    def random_answer(self, sample: EvalSample, rng: random.Random) -> str: ...

    def expected_random(self, sample: EvalSample) -> float | None:
        """The random guess's expected score, where it has a closed form."""
        return None

    def example(self, sample: EvalSample) -> str:
        """The example answer the prompt shows ("" when it shows none)."""
        return ""

    def fields(self, sample: EvalSample) -> Fields:
        """What the template fills in around the context ({question} ends with a blank
        line when the instance has one, so a template puts it straight before its cue)."""
        question = sample.question.strip()
        return (
            ("question", question + "\n\n" if question else ""),
            ("example", self.example(sample)),
            ("n", str(len(sample.answers))),
        )

    def prompts(self, names: Sequence[str]) -> list[PromptTemplate]:
        available = self.templates()
        unknown = [name for name in names if name not in available]
        if unknown:
            raise UserError(
                f"task family {self.family}: prompts {unknown} do not exist "
                f"(it has {sorted(available)})"
            )
        return [PromptTemplate(n, dict(available[n]), f"task:{self.family}") for n in names]

    def max_new_tokens(self, sample: EvalSample) -> int:
        return self.new_tokens

    def random_baseline(self, samples: Sequence[EvalSample], seed: int) -> float | None:
        """Mean random-guess score over `samples` (x1, in [0, 1]); None when unscorable."""
        values: list[float] = []
        for sample in samples:
            expected = self.expected_random(sample)
            if expected is not None:
                values.append(expected)
                continue
            rng = seeded_rng(seed, "random-guess", sample.id)
            draws = [
                self.score(self.random_answer(sample, rng), sample).score
                for _ in range(self.baseline_draws)
            ]
            scored = [d for d in draws if d is not None]
            if scored:
                values.append(sum(scored) / len(scored))
        return sum(values) / len(values) if values else None


def seeded_rng(seed: int, *parts: str) -> random.Random:
    """A generator seeded by the run seed and names (stable across processes)."""
    digest = hashlib.sha256("\0".join([str(seed), *parts]).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def same_answer(parsed: Sequence[str], example: Sequence[str]) -> bool:
    """The parsed answer repeats the prompt's example (both non-empty)."""
    return bool(example) and list(parsed) == list(example)
