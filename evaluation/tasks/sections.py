"""Per-section summarizing (ETHIC): one summary per section, ROUGE-L per section.

`answers` holds one reference summary per section, in section order (K = its length).
An answer is read as sections marked "[1] ...", "[Section 1]", "1. ...",
"Section 1: ...", "【第1部分】" or "第1节：..."; when the markers do not give all K,
K non-empty lines are taken in order.
It is readable when all K sections are found. The score is the mean ROUGE-L over the
K positions (a missing section scores 0); each position's score is kept
(`section_1` ... `section_K`) so tables show where in the context summaries degrade.
The prompt's example is two placeholder sections; repeating them copies the example.

Random guess: one seeded random sentence of the context per section (one draw per
sample: ROUGE on Chinese needs jieba and is not cheap).
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import ClassVar

from lengthwise.evaluation.metrics import rouge_l
from lengthwise.evaluation.samples import EvalSample
from lengthwise.evaluation.tasks.base import AnswerScore, EvalTask, instruction_templates
from lengthwise.text.segment import sentences

_MARKER = re.compile(
    r"(?:^|\n)[ \t*#]*(?:[\[【(]\s*(?:section|part|第)?\s*(\d+)\s*(?:节|部分|段)?\s*[\]】)]"
    r"|(?:section|part)\s*(\d+)\s*[:.：]|第\s*(\d+)\s*(?:节|部分|段)\s*[:：]?"
    r"|(\d+)\s*[.、:：)])",
    re.IGNORECASE,
)
_EXAMPLE = {
    "zh": "[1] 第1节的摘要。\n[2] 第2节的摘要。",
    "en": "[1] Summary of section 1.\n[2] Summary of section 2.",
}
_INSTRUCTION = {
    "zh": (
        "下面的文本按顺序分为{n}节。请为每一节分别写一段简短摘要，按节的顺序输出，"
        "每段另起一行并以方括号中的节号开头，格式如：\n{example}"
    ),
    "en": (
        "The text below is divided into {n} consecutive sections. Write a short summary "
        "of each section separately, in section order, each on its own line starting with "
        "the section number in brackets, like this:\n{example}"
    ),
}
_CUE = {"zh": "各节摘要：", "en": "Section summaries:"}


def read_sections(text: str, count: int) -> list[str] | None:
    """The K sections of an answer, in order, or None when they cannot all be found."""
    found: dict[int, str] = {}
    matches = list(_MARKER.finditer(text))
    for index, match in enumerate(matches):
        number = int(next(group for group in match.groups() if group is not None))
        end = matches[index + 1].start() if index + 1 < len(matches) else len(text)
        if 1 <= number <= count and number not in found:
            found[number] = text[match.end() : end].strip()
    if len(found) == count:
        return [found[n] for n in range(1, count + 1)]
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines if len(lines) == count else None


class SectionsTask(EvalTask):
    family: ClassVar[str] = "sections"
    metric: ClassVar[str] = "mean ROUGE-L F1 over sections"
    baseline: ClassVar[str] = "a random sentence of the context per section"
    baseline_draws: ClassVar[int] = 1

    def templates(self) -> Mapping[str, Mapping[str, str]]:
        return instruction_templates(_INSTRUCTION, _CUE)

    def example(self, sample: EvalSample) -> str:
        return _EXAMPLE.get(sample.language, _EXAMPLE["en"])

    def max_new_tokens(self, sample: EvalSample) -> int:
        return 150 * max(1, len(sample.answers))

    def score(self, text: str, sample: EvalSample) -> AnswerScore:
        count = len(sample.answers)
        parts = read_sections(text, count)
        example = read_sections(self.example(sample), 2)
        copied = parts is not None and example is not None and parts[:2] == example
        written = parts or []
        per_section = {
            f"section_{n}": self._rouge(written[n - 1] if n <= len(written) else "", ref, sample)
            for n, ref in enumerate(sample.answers, start=1)
        }
        value = sum(per_section.values()) / count if count else None
        return AnswerScore(value, parts is not None, copied, per_section, tuple(written))

    @staticmethod
    def _rouge(prediction: str, reference: str, sample: EvalSample) -> float:
        if not reference.strip() or not prediction.strip():
            return 0.0
        return rouge_l(prediction, reference, sample.language)

    def random_answer(self, sample: EvalSample, rng: random.Random) -> str:
        found = sentences(sample.context, sample.language) or [""]
        return "\n".join(f"[{n}] {rng.choice(found)}" for n in range(1, len(sample.answers) + 1))
