"""Ordering (Ada-LEval TSort) and synopsis ordering (ETHIC): put shuffled parts in order.

`answers` holds the labels in reading order (answers[i] is the label of the i-th part
in the source); the parts are shown under their labels in the context (ordering) or
in the question (synopsis ordering). An answer is read as the labels in the order it
gives them as one run ("[2] [1] [4] [3]", "2, 1, 4, 3", "B A D C", "BADC", "b, then a, ...",
"A close reading gives B, A, D, C." -> B A D C: `answers.read_labels`); it is readable
only when the run holds every label once. The prompt's example is the labels in shown
order, so an answer that leaves the parts as shown counts as copying the example, but
only where the shown order is not the answer (the builders never show parts in
reading order; older releases may).

- ordering: exact-match accuracy (random guess 1/N!), and Kendall's tau per answer
  (an unreadable answer counts 0, the random expectation);
- synopsis-ordering: LCS ratio (longest common subsequence / N; the random guess's
  expectation computed exactly for N <= 7, else from 2,000 seeded permutations).
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections.abc import Mapping
from typing import ClassVar

from lengthwise.evaluation.samples import EvalSample
from lengthwise.evaluation.tasks.answers import kendall_tau, lcs_ratio, natural_order, read_labels
from lengthwise.evaluation.tasks.base import (
    AnswerScore,
    EvalTask,
    instruction_templates,
    same_answer,
)

_ORDER_ZH = (
    "下面是从一部小说连续几章中截取的{n}个片段，顺序已被打乱，每个片段前有标签；"
    "片段前后的原文段落作为提示一并给出。请按原文的先后顺序排列这些片段。"
    "只输出标签，按顺序用空格分隔，格式如：{example}"
)
_ORDER_EN = (
    "Below are {n} segments cut from consecutive chapters of a novel, shuffled, each "
    "under its label; the passages just before and after them are given as hints. Put "
    "the segments back in the order they appear in the novel. Answer with the labels "
    "only, in order, separated by spaces, like this: {example}"
)
_SYNOPSES_ZH = (
    "下面是一段长文本，以及按文本各部分写成的{n}条概要，概要顺序已被打乱，每条概要前有标签。"
    "请按它们所概括的部分在文本中出现的先后顺序排列这些概要。"
    "只输出标签，按顺序用空格分隔，格式如：{example}"
)
_SYNOPSES_EN = (
    "Below is a long text and {n} synopses of its consecutive parts, shuffled, each under "
    "its label. Put the synopses in the order their parts appear in the text. Answer with "
    "the labels only, in order, separated by spaces, like this: {example}"
)


def _templates(zh: str, en: str) -> dict[str, dict[str, str]]:
    return instruction_templates({"zh": zh, "en": en}, {"zh": "答案：", "en": "Answer:"})


class OrderingTask(EvalTask):
    family: ClassVar[str] = "ordering"
    metric: ClassVar[str] = "exact-match accuracy"
    baseline: ClassVar[str] = "a uniformly random order (1/N!)"
    new_tokens: ClassVar[int] = 64

    def templates(self) -> Mapping[str, Mapping[str, str]]:
        return _templates(_ORDER_ZH, _ORDER_EN)

    def shown(self, sample: EvalSample) -> list[str]:
        return natural_order(sample.answers)

    def example(self, sample: EvalSample) -> str:
        return " ".join(self.shown(sample))

    def read(self, text: str, sample: EvalSample) -> tuple[list[str] | None, bool]:
        """The order read (None: unreadable) and whether it copies the example; an
        example that is the answer is never counted as copied (a right answer)."""
        order = read_labels(text, sample.answers)
        example = self.shown(sample)
        differs = example != list(sample.answers)
        return order, differs and order is not None and same_answer(order, example)

    def score(self, text: str, sample: EvalSample) -> AnswerScore:
        order, copied = self.read(text, sample)
        reference = list(sample.answers)
        if order is None:
            return AnswerScore(0.0, False, metrics={"kendall_tau": 0.0})
        tau = kendall_tau(order, reference)
        exact = float(order == reference)
        return AnswerScore(exact, True, copied, {"kendall_tau": tau}, tuple(order))

    def random_answer(self, sample: EvalSample, rng: random.Random) -> str:
        labels = list(sample.answers)
        rng.shuffle(labels)
        return " ".join(labels)

    def expected_random(self, sample: EvalSample) -> float | None:
        return 1 / math.factorial(len(sample.answers)) if sample.answers else None


class SynopsisOrderingTask(OrderingTask):
    family: ClassVar[str] = "synopsis-ordering"
    metric: ClassVar[str] = "LCS ratio"
    baseline: ClassVar[str] = "a uniformly random order (expected LCS ratio)"
    new_tokens: ClassVar[int] = 256

    def templates(self) -> Mapping[str, Mapping[str, str]]:
        return _templates(_SYNOPSES_ZH, _SYNOPSES_EN)

    def score(self, text: str, sample: EvalSample) -> AnswerScore:
        order, copied = self.read(text, sample)
        reference = list(sample.answers)
        if order is None:
            return AnswerScore(0.0, False, metrics={"exact_match": 0.0, "kendall_tau": 0.0})
        metrics = {
            "exact_match": float(order == reference),
            "kendall_tau": kendall_tau(order, reference),
        }
        return AnswerScore(lcs_ratio(order, reference), True, copied, metrics, tuple(order))

    def expected_random(self, sample: EvalSample) -> float | None:
        return expected_lcs_ratio(len(sample.answers)) if sample.answers else None


@functools.lru_cache(maxsize=64)
def expected_lcs_ratio(n: int) -> float:
    """E[LCS(random permutation, identity)] / n: exact up to n = 7, else 2,000 draws."""
    identity = [str(i) for i in range(n)]
    if n <= 7:
        perms = itertools.permutations(identity)
        return sum(lcs_ratio(p, identity) for p in perms) / math.factorial(n)
    rng = random.Random(n)
    total = 0.0
    for _ in range(2000):
        order = identity[:]
        rng.shuffle(order)
        total += lcs_ratio(order, identity)
    return total / 2000
