"""What the model-written families (recall, qa) share: the drafting model and id scheme."""

from __future__ import annotations

from collections import Counter

from lengthwise.builders.tasks.base import FamilyUnavailable, TaskBuildContext
from lengthwise.llm.types import LLMClient


def drafting_model(ctx: TaskBuildContext) -> LLMClient:
    """The cached drafting client; without one the task is reported as not built (the
    reason names the spec table it needs), like every family missing an input."""
    if ctx.llm is None:
        raise FamilyUnavailable(
            "written by the drafting model: add an [llm.drafter] table to the spec"
        )
    return ctx.llm


class InstanceIds:
    """'<task>:<length>:<book>:<n>' with n counting per book from 0 (TaskInstance.id)."""

    def __init__(self, task: str, length: str) -> None:
        self.prefix = f"{task}:{length}"
        self.counts: Counter[str] = Counter()

    def next(self, book_id: str) -> str:
        number = self.counts[book_id]
        self.counts[book_id] += 1
        return f"{self.prefix}:{book_id}:{number}"
