"""Shortcut checks: no-model solvers run on every instance of a family at build time.

A benchmark that a heuristic solves measures the heuristic. Every family with a
guessable answer has adversarial baselines here (`SHORTCUTS`, one list per family),
each a plain function instance -> score in [0, 1] that reads only the instance (its
context, question and shown parts), never a model; beside each, the random guess's
expectation on the same instances. The task stage runs them on the kept instances
and the report and the card print each score beside random, with the instances a
baseline solves outright. The best of them should stay within `MARGIN` points of
random: a larger gap is reported as a warning.

- ordering (exact match; random 1/N!): `boundary-overlap`, `hints`, `formula-start`
  (shortcuts_ordering);
- synopsis-ordering (LCS ratio; random: the expected ratio of a random order):
  `shown-order` (the prompt's example copied), `lexical-position` (each synopsis put
  where the context's paragraphs share most words with it);
- needles (an accepted answer found in the baseline's sentence; random: a random
  sentence of the context): `first-fifth`, `last-fifth` (position priors: the sentence
  most like the question in the first or last fifth), `question-overlap` (anywhere);
- qa (per kind: yes-no by the length's majority answer, unanswerable always refused,
  others the context's most frequent name-like word; random: a random sentence, a
  random yes/no): `answer-type prior`.

Families without a guessable answer (recall, sections, incremental) have none.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from lengthwise.builders.tasks.shortcut_record import MARGIN, ShortcutScore
from lengthwise.builders.tasks.shortcuts_answers import (
    answer_type_prior,
    needle_prior,
    random_needle_sentence,
    random_qa_answer,
)
from lengthwise.builders.tasks.shortcuts_ordering import (
    boundary_overlap_order,
    formula_start_order,
    hints_order,
    lexical_position_order,
    read_ordering_context,
)
from lengthwise.task_records import TaskInstance
from lengthwise.text.lcs import lcs_length

MAX_SOLVED_EXAMPLES = 10  # solved instances named per baseline

Score = Callable[[TaskInstance, Sequence[TaskInstance]], float | None]


@dataclass(frozen=True)
class Shortcut:
    """One no-model baseline: its score and the random guess's, per instance."""

    name: str
    description: str
    score: Score
    random: Score


def _exact(order: list[str], instance: TaskInstance) -> float:
    return float(order == list(instance.answers))


def _lcs(order: list[str], instance: TaskInstance) -> float:
    answers = list(instance.answers)
    return lcs_length(order, answers) / len(answers) if answers else 0.0


@functools.lru_cache(maxsize=32)
def expected_lcs_ratio(n: int) -> float:
    """E[LCS(random order, the answer)] / n: exact up to 7 items, else 2,000 draws."""
    identity = list(range(n))
    if n <= 7:
        perms = list(itertools.permutations(identity))
        return sum(lcs_length(list(p), identity) for p in perms) / (len(perms) * n)
    rng = random.Random(n)
    total = 0
    for _ in range(2000):
        order = identity[:]
        rng.shuffle(order)
        total += lcs_length(order, identity)
    return total / (2000 * n)


def _shown(instance: TaskInstance) -> list[str]:
    shown = instance.details.get("labels")
    return [str(label) for label in shown] if isinstance(shown, list) else []


def _ordering(solve: Callable[[str], list[str]]) -> Score:
    return lambda instance, _: _exact(solve(instance.context), instance)


def _random_order(instance: TaskInstance, _: Sequence[TaskInstance]) -> float:
    return 1 / math.factorial(len(instance.answers)) if instance.answers else 0.0


def _random_lcs(instance: TaskInstance, _: Sequence[TaskInstance]) -> float:
    return expected_lcs_ratio(len(instance.answers)) if instance.answers else 0.0


SHORTCUTS: dict[str, list[Shortcut]] = {
    "ordering": [
        Shortcut(
            "boundary-overlap",
            "the order with most words shared across boundaries, damaged boundaries joined",
            _ordering(lambda c: boundary_overlap_order(read_ordering_context(c))),
            _random_order,
        ),
        Shortcut(
            "hints",
            "first and last segments by their overlap with the hint paragraphs",
            _ordering(lambda c: hints_order(read_ordering_context(c))),
            _random_order,
        ),
        Shortcut(
            "formula-start",
            "segments opening with a transition formula (却说, 话说, ...) put last",
            _ordering(lambda c: formula_start_order(read_ordering_context(c))),
            _random_order,
        ),
    ],
    "synopsis-ordering": [
        Shortcut(
            "shown-order",
            "the synopses left as shown (the prompt's example)",
            lambda i, _: _lcs(_shown(i), i),
            _random_lcs,
        ),
        Shortcut(
            "lexical-position",
            "each synopsis where the context's paragraphs share most words with it",
            lambda i, _: _lcs(lexical_position_order(i), i),
            _random_lcs,
        ),
    ],
    "needles": [
        Shortcut(
            "first-fifth",
            "the sentence most like the question in the context's first fifth",
            lambda i, _: needle_prior(i, 0.0, 0.2),
            random_needle_sentence,
        ),
        Shortcut(
            "last-fifth",
            "the sentence most like the question in the context's last fifth",
            lambda i, _: needle_prior(i, 0.8, 1.0),
            random_needle_sentence,
        ),
        Shortcut(
            "question-overlap",
            "the sentence most like the question anywhere (lexical retrieval)",
            lambda i, _: needle_prior(i, 0.0, 1.0),
            random_needle_sentence,
        ),
    ],
    "qa": [
        Shortcut(
            "answer-type prior",
            "yes-no: the majority answer; unanswerable: refused; else the commonest name",
            answer_type_prior,
            random_qa_answer,
        ),
    ],
}


def shortcut_scores(family: str, instances: Sequence[TaskInstance]) -> list[ShortcutScore]:
    """Every baseline of `family` on `instances` (the main series: needles' fill series
    left out), in `SHORTCUTS` order; [] for a family without baselines or instances."""
    main = [i for i in instances if i.fill is None]
    out = []
    for shortcut in SHORTCUTS.get(family, []) if main else []:
        scores: list[float] = []
        randoms: list[float] = []
        solved: list[str] = []
        for instance in main:
            value = shortcut.score(instance, main)
            chance = shortcut.random(instance, main)
            if value is None or chance is None:
                continue
            scores.append(value)
            randoms.append(chance)
            if value >= 1.0:
                solved.append(instance.id)
        if scores:
            out.append(
                ShortcutScore(
                    name=shortcut.name,
                    description=shortcut.description,
                    score=round(100 * sum(scores) / len(scores), 2),
                    random=round(100 * sum(randoms) / len(randoms), 2),
                    instances=len(scores),
                    solved=len(solved),
                    solved_examples=solved[:MAX_SOLVED_EXAMPLES],
                )
            )
    return out


def shortcut_warnings(task: str, length: str, scores: Sequence[ShortcutScore]) -> list[str]:
    """One line per baseline more than `MARGIN` points over random."""
    return [
        f"{task} {length}: shortcut {s.name} scores {s.score:.1f} against random "
        f"{s.random:.1f} (more than {MARGIN:g} points over)"
        for s in scores
        if s.over_random > MARGIN
    ]
