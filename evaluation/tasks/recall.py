"""Recall (ETHIC): every character named in the context; F1 over name sets.

`answers` holds one canonical name per person. An answer is read as a list (one name
per line, or separated by commas / 、), list markers removed; it is readable when it
names at least one item. Names match after normalisation (NFKC, case-folded,
punctuation and spaces removed), so "Mr. Darcy" and "mr darcy" are one name; an alias
the reference does not list counts as a wrong name. The prompt's example names two
made-up people; an answer naming exactly them copies the example.

Random guess: as many name-like pieces of the context as the reference has names
(capitalised words in English, two-character runs in Chinese), drawn with the seed.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import ClassVar

from lengthwise.evaluation.samples import EvalSample
from lengthwise.evaluation.tasks.answers import name_set, read_items, set_f1
from lengthwise.evaluation.tasks.base import AnswerScore, EvalTask, instruction_templates

_EXAMPLE = {"zh": "张三\n李四", "en": "Jane Doe\nJohn Smith"}
_INSTRUCTION = {
    "zh": (
        "请列出下面文本中出现的所有人物的名字，每行一个，同一人物只写一次（用其最常用的名字）。"
        "只输出名字列表，格式如：\n{example}"
    ),
    "en": (
        "List every character (person) named in the text below, one name per line, each "
        "person once (under the name the text uses most). Output only the list, like "
        "this:\n{example}"
    ),
}
_CUE = {"zh": "人物：", "en": "Characters:"}
_CAPITALISED = re.compile(r"\b[A-Z][a-z]+\b")
_HAN_PAIR = re.compile(r"[\u4e00-\u9fff]{2}")


class RecallTask(EvalTask):
    family: ClassVar[str] = "recall"
    metric: ClassVar[str] = "name-set F1"
    baseline: ClassVar[str] = "random name-like words of the context, as many as the names"
    new_tokens: ClassVar[int] = 512

    def templates(self) -> Mapping[str, Mapping[str, str]]:
        return instruction_templates(_INSTRUCTION, _CUE)

    def example(self, sample: EvalSample) -> str:
        return _EXAMPLE.get(sample.language, _EXAMPLE["en"])

    def score(self, text: str, sample: EvalSample) -> AnswerScore:
        items = read_items(text)
        names = name_set(items)
        copied = bool(names) and names == name_set(read_items(self.example(sample)))
        f1 = set_f1(names, name_set(sample.answers))
        return AnswerScore(f1, bool(names), copied, {}, tuple(sorted(names)))

    def random_answer(self, sample: EvalSample, rng: random.Random) -> str:
        pattern = _HAN_PAIR if sample.language == "zh" else _CAPITALISED
        pool = sorted(set(pattern.findall(sample.context)))
        wanted = max(1, len(sample.answers))
        return "\n".join(rng.sample(pool, min(wanted, len(pool))))
