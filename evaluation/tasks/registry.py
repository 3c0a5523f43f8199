"""Evaluation tasks by family name, imported only when a run uses them.

Like the model providers (lengthwise.llm.registry), a family is registered as
"module:Class"; `make_task` imports the module and builds the task with the run's
options. A new family: subclass `EvalTask` in a module of this package and add one
`register_task` line below.
"""

from __future__ import annotations

import importlib
from typing import Any

from lengthwise.errors import UserError
from lengthwise.evaluation.tasks.base import EvalTask

SUMMARIZATION = "summarization"
_TASKS: dict[str, str] = {}


def register_task(family: str, target: str) -> None:
    """Add (or replace) the task of `family`; nothing is imported until it is built."""
    if ":" not in target:
        raise ValueError(f"task {family!r}: target must be 'module:Class', got {target!r}")
    _TASKS[family] = target


def task_families() -> list[str]:
    return sorted(_TASKS)


def make_task(family: str, **options: Any) -> EvalTask:
    """The task of `family`; options go to its constructor (judge, metric, prompt_file)."""
    target = _TASKS.get(family)
    if target is None:
        raise UserError(f"no evaluation task for family {family!r} (known: {task_families()})")
    module_name, name = target.split(":", 1)
    task_class = getattr(importlib.import_module(module_name), name)
    task: EvalTask = task_class(**options)
    return task


_PACKAGE = "lengthwise.evaluation.tasks"
register_task(SUMMARIZATION, f"{_PACKAGE}.summarization:SummarizationTask")
register_task("ordering", f"{_PACKAGE}.ordering:OrderingTask")
register_task("synopsis-ordering", f"{_PACKAGE}.ordering:SynopsisOrderingTask")
register_task("recall", f"{_PACKAGE}.recall:RecallTask")
register_task("sections", f"{_PACKAGE}.sections:SectionsTask")
register_task("qa", f"{_PACKAGE}.qa:QATask")
register_task("needles", f"{_PACKAGE}.qa:NeedlesTask")
register_task("incremental", f"{_PACKAGE}.incremental:IncrementalTask")
