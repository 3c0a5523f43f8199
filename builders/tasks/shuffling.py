"""Seeded draws and shuffled labelled items, shared by the ordering families.

Every draw of a family at one length comes from one RNG seeded by the spec's seed, the
task's name and the length's name (`stable_seed`: the same on every machine), so a
rebuild with the same seed gives the same instances and another seed other ones.
"""

from __future__ import annotations

import random
import string
from collections.abc import Sequence
from dataclasses import dataclass

from lengthwise.builders.sampling.selection import stable_seed
from lengthwise.task_spec import TaskLength


def task_rng(seed: int, task: str, length: TaskLength) -> random.Random:
    """The RNG of one task at one length."""
    return random.Random(stable_seed(seed, f"task:{task}:{length.name}"))


def labels(count: int) -> list[str]:
    """Letter labels A, B, ..., Z, AA, AB, ... (letters, so that no label looks like a
    position)."""
    letters = string.ascii_uppercase
    out: list[str] = []
    for index in range(count):
        label = ""
        value = index + 1
        while value:
            value, rest = divmod(value - 1, 26)
            label = letters[rest] + label
        out.append(label)
    return out


@dataclass(frozen=True)
class Shuffled:
    """Items in reading order shown shuffled under letter labels.

    `shown_order[k]` is the reading position of the k-th item shown (labelled
    `labels[k]`); `answer` is the labels in reading order (the family's reference).
    """

    shown_order: list[int]
    labels: list[str]

    @property
    def answer(self) -> list[str]:
        by_position = {position: self.labels[k] for k, position in enumerate(self.shown_order)}
        return [by_position[p] for p in range(len(self.shown_order))]


def shuffle_items(count: int, rng: random.Random) -> Shuffled:
    """A uniformly random permutation other than the identity: the prompt's example is
    the labels as shown, so the parts are never shown in reading order (copying the
    example is then always wrong). A uniformly random guess still scores 1/N! on any
    answer; a solver knowing this rule gains 1/(N! - 1), which is why the families ask
    for 3 items or more (with 2 the rule would give the answer away)."""
    order = list(range(count))
    rng.shuffle(order)
    while count > 1 and order == sorted(order):
        rng.shuffle(order)
    return Shuffled(shown_order=order, labels=labels(count))


def shown(items: Sequence[str], shuffled: Shuffled) -> list[str]:
    """The items in the order they are shown."""
    return [items[position] for position in shuffled.shown_order]
