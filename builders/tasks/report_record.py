"""The task stage's report as a typed record: what `lengthwise tasks` writes to
WORK/tasks/report.json and what the markdown report, build_report.md's "Task families"
section, the command's output and the release (configs, card) read back.

The JSON file holds `TasksReport.to_json()` inside the stage runner's envelope
(tool_version and fingerprint first, seconds last); `read_tasks_report` returns the body.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from typing_extensions import TypedDict

from lengthwise.builders.tasks.shortcut_record import ShortcutScore
from lengthwise.json_records import JsonRecord
from lengthwise.llm.types import ChatRequest, ChatResult
from lengthwise.storage import read_json
from lengthwise.workdir import WorkDir


@dataclass
class TaskLengthReport:
    """One task at one length: what the family built, kept and dropped (with reasons)."""

    name: str
    target: int
    lower: int
    upper: int
    requested: int
    built: int  # instances the family's builder made, before checks and the choice
    instances: int  # kept and written
    fill_instances: int  # of them, the fill series (needles): outside the token figures
    mean_tokens: float | None
    min_tokens: int | None
    max_tokens: int | None
    books: int
    not_built: str | None  # why the family could not be built at all
    dropped: dict[str, int] = field(default_factory=dict)  # reason -> count
    examples: dict[str, list[str]] = field(default_factory=dict)  # reason -> instances
    warnings: list[str] = field(default_factory=list)
    largest_book: str | None = None  # the book giving the most instances (balance by book)
    largest_book_instances: int = 0
    # no-model baselines run on the kept instances, beside random (builders/tasks/shortcuts)
    shortcuts: list[ShortcutScore] = field(default_factory=list)


@dataclass
class TaskReport:
    name: str
    family: str
    lengths: list[TaskLengthReport]


@dataclass
class TasksReport(JsonRecord):
    spec: str
    primary_tokenizer: str
    seed: int
    books: int
    synopses: int
    synopses_skipped: dict[str, int]  # reason -> chapter drafts not used as synopses
    drafter: str | None  # the model that wrote questions, when one was asked
    tasks: list[TaskReport]

    def lengths(self) -> dict[tuple[str, str], TaskLengthReport]:
        """Every length's entry by (task, length)."""
        return {(t.name, length.name): length for t in self.tasks for length in t.lengths}


def read_tasks_report(work: WorkDir) -> TasksReport:
    """WORK/tasks/report.json's body (the caller checks the file exists)."""
    path = work.tasks_report
    return TasksReport.from_json(read_json(path), str(path))


class DrafterOptions(TypedDict, total=False):
    """What `make_client` takes for the task stage's drafting model besides the config
    (tests: provider "scripted" with a script)."""

    provider: str
    script: Callable[[ChatRequest], ChatResult]
    name: str
    order: Literal["input", "reversed"]
    interrupt_after: int | None
