"""What a task-family builder gets and returns (the contract every family module follows).

A family module (`builders/tasks/<family>.py`) registers one function:

    @register_family("ordering")
    def build_ordering(ctx: TaskBuildContext, length: TaskLength) -> list[TaskInstance]: ...

It is a plain function over records: everything it reads comes in `ctx` (books with
their chapters and token counts, the primary tokenizer's counter, the seed, the chapter
synopses, the drafting model when the family needs one), and it returns instances whose
context lies inside [length.lower, length.upper] by its own count. Every candidate it
does not turn into an instance is counted with a reason through `ctx.drops`
(`ctx.drops.drop("too short for the length", example=book_id)`), never silently skipped.
A family that cannot be built at all (it needs synopses or a model this build lacks)
raises `FamilyUnavailable(reason)`; `ctx.llm` is None when `[llm.drafter]` is not set
(the client is created on first use, so families that never call it cost nothing).
The task stage (`builders/tasks/stage.py`) recounts every context independently, writes
the parquet files and the report, and decides nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from lengthwise.llm.types import LLMClient
from lengthwise.records import Book
from lengthwise.reports import StageReport
from lengthwise.spec import Spec
from lengthwise.task_records import TaskInstance
from lengthwise.task_spec import TaskLength, TaskSpec
from lengthwise.workdir import WorkDir

CountTokens = Callable[[Sequence[str]], list[int]]


@dataclass
class TaskBuildContext:
    spec: Spec
    task: TaskSpec
    work: WorkDir
    books: dict[str, Book]  # the build's books (cleaned, chapters detected, deduplicated)
    count_tokens: CountTokens  # primary tokenizer: texts -> token counts
    tokenizer: str  # the primary tokenizer's id
    seed: int
    drops: StageReport  # every candidate not turned into an instance, with its reason
    # chapter sha256 -> synopsis (human-reviewed when present, else the draft); {} before drafts
    synopses: dict[str, str] = field(default_factory=dict)
    llm: LLMClient | None = None  # the drafting model (cached), for families that need one


class FamilyUnavailable(Exception):
    """Raised by a family builder that cannot build with what this build has (no chapter
    synopses, no drafting model configured): the stage reports the task as not built,
    with this message as the reason, at every length."""


FamilyBuilder = Callable[[TaskBuildContext, TaskLength], list[TaskInstance]]

_FAMILIES: dict[str, FamilyBuilder] = {}


def register_family(family: str) -> Callable[[FamilyBuilder], FamilyBuilder]:
    def decorate(function: FamilyBuilder) -> FamilyBuilder:
        _FAMILIES[family] = function
        return function

    return decorate


def family_builder(family: str) -> FamilyBuilder:
    """The registered builder of `family` (modules register themselves on import)."""
    import lengthwise.builders.tasks.families  # noqa: F401  (imports every family module)

    try:
        return _FAMILIES[family]
    except KeyError:
        raise KeyError(f"no builder registered for task family {family!r}") from None
