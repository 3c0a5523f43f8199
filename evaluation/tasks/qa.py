"""Question answering by position (qa) and needles in real documents (SWiM).

qa: `details["kind"]` says what `answers` holds (lengthwise.task_spec QUESTION_KINDS):
- ``extractive``: spans of the context; token F1 against the best-matching answer;
- ``yes-no``: answers[0] starts with yes/no (是/否); correct when the answer starts the
  same way (readable only when it starts with one of them);
- ``unanswerable``: `answers` is empty; correct when the answer says it cannot be
  answered (the prompt asks for exactly "Unanswerable" / "无法回答");
- ``abstractive``: the judge model's verdict (correct = 1) when the run has a judge,
  token F1 until then (the line says `judge: pending`).
needles: accuracy: correct when an accepted answer, normalised, occurs in the answer
or the token F1 reaches `NEEDLE_F1`; with a judge, the judge's verdict decides. Token
F1 is kept beside the score for both families.

Neither prompt shows an example answer. Random guess: a seeded random sentence of the
context (yes/no questions: a random yes or no), scored without the judge.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import ClassVar, Final

from lengthwise.evaluation.outcomes import is_empty
from lengthwise.evaluation.prompts import Fields
from lengthwise.evaluation.samples import EvalSample
from lengthwise.evaluation.tasks.answers import (
    answer_tokens,
    best_token_f1,
    contains_answer,
    normalise,
)
from lengthwise.evaluation.tasks.base import AnswerScore, EvalTask
from lengthwise.text.segment import sentences

NEEDLE_F1: Final = 0.5
UNANSWERABLE: Final = {"zh": "无法回答", "en": "Unanswerable"}
_UNANSWERABLE_SIGNS: Final = (
    "unanswerable",
    "cannot be answered",
    "not mentioned",
    "does not say",
    "no answer",
    "无法回答",
    "没有提到",
    "未提及",
    "无法确定",
)
_YES: Final = ("yes", "是", "对", "是的")
_NO: Final = ("no", "否", "不", "不是", "没有")
_INSTRUCTION = {
    "zh": (
        "请根据上面的文本回答问题。{format}如果文本中没有答案，只回答“"
        + UNANSWERABLE["zh"]
        + "”。\n\n问题：{question}"
    ),
    "en": (
        "Answer the question using the text above. {format}If the text does not contain "
        'the answer, reply exactly "' + UNANSWERABLE["en"] + '".\n\nQuestion: {question}'
    ),
}
_INSTRUCTION_FIRST = {
    "zh": "请根据下面的文本回答问题：{question}\n{format}如果文本中没有答案，只回答“"
    + UNANSWERABLE["zh"]
    + "”。",
    "en": "Answer this question using the text below: {question}\n{format}If the text does "
    'not contain the answer, reply exactly "' + UNANSWERABLE["en"] + '".',
}
_YES_NO_FORMAT = {
    "zh": "先回答“是”或“否”，再给出理由。",
    "en": "Begin with Yes or No, then give the reason. ",
}
_CUE = {"zh": "答案：", "en": "Answer:"}


def yes_no(text: str) -> str | None:
    """'yes', 'no' or None: how the answer starts."""
    tokens = answer_tokens(text)
    if not tokens:
        return None
    if tokens[0] in _YES:
        return "yes"
    return "no" if tokens[0] in _NO else None


def says_unanswerable(text: str) -> bool:
    found = normalise(text)
    return any(normalise(sign) in found for sign in _UNANSWERABLE_SIGNS)


class QATask(EvalTask):
    family: ClassVar[str] = "qa"
    metric: ClassVar[str] = "accuracy (judge) / token F1 (extractive)"
    baseline: ClassVar[str] = "a random sentence of the context (yes/no: a random yes or no)"
    new_tokens: ClassVar[int] = 128

    def templates(self) -> Mapping[str, Mapping[str, str]]:
        return {
            "IB": {
                lang: f"{_INSTRUCTION_FIRST[lang]}\n\n{{}}\n\n{_CUE[lang]}" for lang in ("zh", "en")
            },
            "IE": {lang: f"{{}}\n\n{_INSTRUCTION[lang]}\n\n{_CUE[lang]}" for lang in ("zh", "en")},
        }

    def fields(self, sample: EvalSample) -> Fields:
        kind = self.kind(sample)
        form = _YES_NO_FORMAT.get(sample.language, _YES_NO_FORMAT["en"]) if kind == "yes-no" else ""
        return (("question", sample.question.strip()), ("format", form))

    @staticmethod
    def kind(sample: EvalSample) -> str:
        return str(sample.details.get("kind") or "abstractive")

    def score(self, text: str, sample: EvalSample) -> AnswerScore:
        kind = self.kind(sample)
        f1 = best_token_f1(text, sample.answers) if sample.answers else 0.0
        readable = not is_empty(text)
        metrics = {"token_f1": f1}
        if kind == "unanswerable":
            return AnswerScore(float(says_unanswerable(text)), readable, metrics=metrics)
        if kind == "yes-no":
            said, wanted = yes_no(text), yes_no(sample.answers[0]) if sample.answers else None
            return AnswerScore(
                float(said is not None and said == wanted), said is not None, metrics=metrics
            )
        if kind == "extractive":
            return AnswerScore(f1, readable, metrics=metrics)
        return AnswerScore(f1, readable, metrics=metrics, needs_judge=self.judge)

    def random_answer(self, sample: EvalSample, rng: random.Random) -> str:
        if self.kind(sample) == "yes-no":
            return rng.choice(["Yes.", "No."] if sample.language != "zh" else ["是。", "否。"])
        found = sentences(sample.context, sample.language) or [""]
        return rng.choice(found)


class NeedlesTask(QATask):
    family: ClassVar[str] = "needles"
    metric: ClassVar[str] = "accuracy"
    baseline: ClassVar[str] = "a random sentence of the context"

    @staticmethod
    def kind(sample: EvalSample) -> str:
        return "needle"

    def score(self, text: str, sample: EvalSample) -> AnswerScore:
        f1 = best_token_f1(text, sample.answers)
        correct = contains_answer(text, sample.answers) or f1 >= NEEDLE_F1
        metrics = {"token_f1": f1}
        return AnswerScore(
            float(correct), not is_empty(text), metrics=metrics, needs_judge=self.judge
        )
