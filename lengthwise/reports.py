"""Stage reports: what a stage kept, what it dropped and why, and how long it took.

Modelled on datatrove's stats: steps report (keep, reason) decisions and the
report counts reasons, keeping a few examples of each so a builder can audit.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

from typing_extensions import TypedDict

MAX_EXAMPLES = 3


def one_line(text: str) -> str:
    """`text` as one line of a report or message: a line break inside a value (a file
    name may hold one) is shown escaped, so it cannot break a line or forge another."""
    if "\n" not in text and "\r" not in text:
        return text
    return text.replace("\r", "\\r").replace("\n", "\\n")


class StageReportJson(TypedDict):
    """A `StageReport` as reports hold it."""

    stage: str
    kept: int
    dropped: dict[str, int]  # reason -> count
    examples: dict[str, list[str]]  # reason -> examples
    warnings: list[str]
    seconds: float


@dataclass
class StageReport:
    stage: str
    kept: int = 0
    dropped: Counter[str] = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    seconds: float = 0.0
    # Examples kept per reason; None keeps every one (stages whose drops people must all see).
    max_examples: int | None = MAX_EXAMPLES
    _started: float = field(default_factory=time.perf_counter, repr=False)

    def keep(self, count: int = 1) -> None:
        self.kept += count

    def drop(self, reason: str, example: str = "") -> None:
        self.dropped[reason] += 1
        if example:
            bucket = self.examples.setdefault(reason, [])
            if self.max_examples is None or len(bucket) < self.max_examples:
                bucket.append(example)

    def warn(self, message: str) -> None:
        self.warnings.append(message)

    def finish(self) -> StageReport:
        self.seconds = round(time.perf_counter() - self._started, 3)
        return self

    def to_dict(self) -> StageReportJson:
        return {
            "stage": self.stage,
            "kept": self.kept,
            "dropped": dict(sorted(self.dropped.items())),
            "examples": self.examples,
            "warnings": self.warnings,
            "seconds": self.seconds,
        }
