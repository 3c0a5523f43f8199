"""One progress display for the stage that runs: items done of total, per step.

The stage runner opens a `ProgressDisplay` for each stage and hands it to the stage
(`Stage.display`); the stage reports into it step by step::

    with self.display.step("books", total=len(docs)) as step:
        for doc in docs:
            ...
            step.advance()

One line on stderr (``build: books 3/6``), replaced by the next step's; nothing at all
when stderr is not a terminal or the command was given ``--quiet``. No stage draws a bar
of its own.
"""

from __future__ import annotations

import sys
from types import TracebackType
from typing import Any

from tqdm import tqdm


class _Bar(tqdm):  # type: ignore[misc]  # tqdm ships no type hints
    # No monitor thread: with a thread running, later process pools could not fork.
    monitor_interval = 0


class ProgressStep:
    """Items done of `total` in one step of a stage; a no-op when the display is quiet."""

    def __init__(self, bar: Any | None) -> None:
        self._bar = bar
        self.done = 0

    def advance(self, count: int = 1) -> None:
        self.done += count
        if self._bar is not None:
            self._bar.update(count)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self) -> ProgressStep:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


class ProgressDisplay:
    """The shared display of one stage run: at most one step drawn at a time."""

    def __init__(self, stage: str, enabled: bool, min_interval: float = 0.1) -> None:
        self.stage = stage
        self.enabled = enabled
        self.min_interval = min_interval  # seconds between redraws
        self._current: ProgressStep | None = None

    @classmethod
    def for_stage(cls, stage: str, quiet: bool = False) -> ProgressDisplay:
        """Drawn on stderr only when it is a terminal and the command is not quiet."""
        return cls(stage, enabled=not quiet and sys.stderr.isatty())

    def step(self, name: str, total: int | None = None, unit: str = "item") -> ProgressStep:
        """Start step `name` (closing the previous one) with `total` items to do."""
        self.close()
        bar = None
        if self.enabled:
            desc = f"{self.stage}: {name}"
            bar = _Bar(
                total=total,
                desc=desc,
                unit=unit,
                file=sys.stderr,
                leave=False,
                mininterval=self.min_interval,
            )
        self._current = ProgressStep(bar)
        return self._current

    def close(self) -> None:
        if self._current is not None:
            self._current.close()
            self._current = None


QUIET = ProgressDisplay("", enabled=False)
