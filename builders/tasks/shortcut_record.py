"""A shortcut check's result as the task report stores it (see `shortcuts`)."""

from __future__ import annotations

from dataclasses import dataclass, field

MARGIN = 10.0  # points over random the best shortcut may score before a warning


@dataclass
class ShortcutScore:
    """A baseline's result on one task length (scores x100, like evaluation tables)."""

    name: str
    description: str
    score: float
    random: float
    instances: int
    solved: int  # instances scored 1 (fully solved)
    solved_examples: list[str] = field(default_factory=list)

    @property
    def over_random(self) -> float:
        return self.score - self.random
