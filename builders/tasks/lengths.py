"""The lengths a task is built at: its own `lengths`, the spec's `[[subsets]]`, or (for the
incremental family) one length per token step."""

from __future__ import annotations

from lengthwise.spec import Spec
from lengthwise.task_spec import IncrementalTask, TaskLength, TaskSpec


def step_name(tokens: int) -> str:
    """8192 -> "8k", 131072 -> "128k"; a step that is not a whole number of k keeps its count."""
    return f"{tokens // 1024}k" if tokens % 1024 == 0 else str(tokens)


def incremental_lengths(task: IncrementalTask) -> list[TaskLength]:
    """One length per step from start_tokens to max_tokens; a step's prefix ends on a whole
    paragraph at or below the step, and at most a quarter step below it."""
    lengths = []
    tokens = task.start_tokens
    while tokens <= task.max_tokens:
        lower = max(1, tokens - task.step_tokens // 4)
        lengths.append(
            TaskLength(
                name=step_name(tokens), target=tokens, lower=lower, upper=tokens, count=task.books
            )
        )
        tokens += task.step_tokens
    return lengths


def task_lengths(spec: Spec, task: TaskSpec) -> list[TaskLength]:
    """The lengths `task` is built at, in order."""
    if task.lengths is not None:
        return list(task.lengths)
    if isinstance(task, IncrementalTask):
        return incremental_lengths(task)
    return [
        TaskLength(name=s.name, target=s.target, lower=s.lower, upper=s.upper, count=s.count)
        for s in spec.subsets
    ]
