"""Scripted answerers for task instances (TEST FIXTURES, not a test module).

A script finds the instance a prompt was built from (the longest instance context it
contains) and answers it perfectly or at random. The random answerers are written
here, independently of the tasks' own random guesses, so a test compares a real random
model with the baseline the evaluator reports.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence

from lengthwise.llm.types import ChatRequest, ChatResult
from lengthwise.task_records import TaskInstance

Answerer = Callable[[TaskInstance, random.Random], str]


def perfect(instance: TaskInstance, rng: random.Random) -> str:
    family, answers = instance.family, instance.answers
    if family in ("ordering", "synopsis-ordering"):
        return " ".join(answers)
    if family == "recall":
        return "\n".join(answers)
    if family == "sections":
        return "\n".join(f"[{k}] {text}" for k, text in enumerate(answers, start=1))
    if family == "qa" and instance.details.get("kind") == "unanswerable":
        return "无法回答" if instance.language == "zh" else "Unanswerable"
    if family in ("qa", "needles"):
        return answers[0]
    return "A summary of the text." if instance.language == "en" else "这段文字的摘要。"


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.。])\s*", text) if s.strip()]


def at_random(instance: TaskInstance, rng: random.Random) -> str:
    """A model that read nothing: random orders, random words, random sentences."""
    family = instance.family
    if family in ("ordering", "synopsis-ordering"):
        labels = list(instance.answers)
        rng.shuffle(labels)
        return ", ".join(labels)
    if family == "recall":
        pattern = r"[\u4e00-\u9fff]{2}" if instance.language == "zh" else r"\b[A-Z][a-z]+\b"
        pool = sorted(set(re.findall(pattern, instance.context)))
        return "\n".join(rng.sample(pool, min(len(instance.answers), len(pool))))
    if family == "sections":
        found = _sentences(instance.context)
        return "\n".join(f"[{k}] {rng.choice(found)}" for k in range(1, len(instance.answers) + 1))
    if family == "qa" and instance.details.get("kind") == "yes-no":
        return rng.choice(["是。", "否。"] if instance.language == "zh" else ["Yes.", "No."])
    return rng.choice(_sentences(instance.context))


def script(
    instances: Sequence[TaskInstance], answerer: Answerer, seed: int = 1
) -> Callable[[ChatRequest], ChatResult]:
    """A `scripted` provider script answering each prompt's instance with `answerer`."""
    by_length = sorted(instances, key=lambda i: len(i.context), reverse=True)

    def answer(request: ChatRequest) -> ChatResult:
        prompt = request.messages[-1].content
        instance = next(i for i in by_length if i.context in prompt)
        rng = random.Random(f"{seed}:{instance.id}:{request.prompt_version}")
        return ChatResult(text=answerer(instance, rng), outcome="ok", model="scripted")

    return answer
