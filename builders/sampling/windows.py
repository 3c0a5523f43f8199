"""Chapter windows: CNNSum's first-fit rule, a closest-to-target variant, nested series.

All functions work on one book's chapter token lengths and return ``(first, last)`` pairs of
0-based inclusive chapter indices, in reading order, never overlapping.

CNNSum's rule (section 3.2), which ``first_fit_windows`` implements exactly:

1. Start a window at chapter c_s and add chapters one by one.
2. After adding c_e: shorter than ``lower`` -> keep adding; within [lower, upper] -> record it
   and start a new window at c_(e+1); longer than ``upper`` -> drop chapters from the front
   until it fits (record it, restart after c_e) or falls below ``lower`` (keep adding).
   A single chapter longer than ``upper`` empties the window when dropped from the front:
   the next window starts after it, so that chapter is never part of a window.
3. At the end of the book, stop (an unfinished window is discarded).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from lengthwise.spec import SubsetSpec

Window = tuple[int, int]
Policy = Literal["first-fit", "closest"]
POLICIES: tuple[Policy, ...] = ("first-fit", "closest")


def _check_bounds(lower: int, upper: int) -> None:
    if lower < 0 or lower > upper:
        raise ValueError(f"window bounds must satisfy 0 <= lower <= upper, got [{lower}, {upper}]")


def _scan(
    tokens: Sequence[int], start: int, stop: int, lower: int, upper: int, target: int | None
) -> list[Window]:
    """Windows inside ``tokens[start:stop]``; ``target`` None = first-fit, else closest.

    Linear time: every chapter enters the window once and leaves it at most once.
    """
    windows: list[Window] = []
    first = start  # c_s
    total = 0
    last = start  # c_e
    while last < stop:
        total += tokens[last]
        if total > upper:
            # Drop from the front until it fits or the window is empty.
            while total > upper and first <= last:
                total -= tokens[first]
                first += 1
            if first > last:  # the chapter alone is longer than upper: unusable
                first, total, last = last + 1, 0, last + 1
                continue
        if total >= lower:
            if target is not None:
                # closest: extend while the next chapter brings the total strictly closer to
                # the target without passing upper.
                while last + 1 < stop:
                    extended = total + tokens[last + 1]
                    if extended > upper or abs(extended - target) >= abs(total - target):
                        break
                    last += 1
                    total = extended
            windows.append((first, last))
            first, total = last + 1, 0
        last += 1
    return windows


def first_fit_windows(chapter_tokens: Sequence[int], lower: int, upper: int) -> list[Window]:
    """CNNSum's windows: record a window as soon as its total reaches ``lower``."""
    _check_bounds(lower, upper)
    return _scan(chapter_tokens, 0, len(chapter_tokens), lower, upper, None)


def closest_windows(
    chapter_tokens: Sequence[int], lower: int, upper: int, target: int
) -> list[Window]:
    """Like first-fit, but a window within [lower, upper] keeps growing while the next
    chapter brings its total strictly closer to ``target`` without passing ``upper``.

    First-fit bunches windows just above ``lower``; this moves them towards the target at
    the price of fewer windows per book.
    """
    _check_bounds(lower, upper)
    return _scan(chapter_tokens, 0, len(chapter_tokens), lower, upper, target)


def segments(length: int, breaks: Sequence[int] = ()) -> list[tuple[int, int]]:
    """``[start, stop)`` stretches of a book of ``length`` chapters cut at ``breaks``."""
    cuts = sorted({b for b in breaks if 0 < b < length})
    bounds = [0, *cuts, length]
    return [(bounds[i], bounds[i + 1]) for i in range(len(bounds) - 1)]


def spanning(windows: Sequence[Window], breaks: Sequence[int]) -> int:
    """How many windows reach across a break (hold chapters ``b - 1`` and ``b``)."""
    return sum(1 for first, last in windows if any(first < b <= last for b in breaks))


def policy_windows(
    chapter_tokens: Sequence[int],
    subset: SubsetSpec,
    policy: Policy,
    breaks: Sequence[int] = (),
) -> list[Window]:
    """Windows of one subset's interval under ``policy`` ("first-fit" or "closest"),
    each inside one stretch between ``breaks`` (windowing restarts after a break)."""
    if policy not in POLICIES:
        raise ValueError(f"unknown sampling policy {policy!r}; expected one of {list(POLICIES)}")
    _check_bounds(subset.lower, subset.upper)
    target = subset.target if policy == "closest" else None
    windows: list[Window] = []
    for start, stop in segments(len(chapter_tokens), breaks):
        windows += _scan(chapter_tokens, start, stop, subset.lower, subset.upper, target)
    return windows


@dataclass(frozen=True)
class NestedWindow:
    """A window of ``subset`` and the innermost window of a longer subset holding it."""

    subset: str
    first: int
    last: int
    parent: NestedWindow | None


def nesting_order(subsets: Sequence[SubsetSpec]) -> list[SubsetSpec]:
    """Subsets from the longest target down (ties: larger upper first, then name)."""
    return sorted(subsets, key=lambda s: (-s.target, -s.upper, s.name))


def nested_windows(
    chapter_tokens: Sequence[int],
    subsets: Sequence[SubsetSpec],
    policy: Policy,
    breaks: Sequence[int] = (),
) -> dict[str, list[NestedWindow]]:
    """Windows for every subset, each shorter subset cut *inside* the longer ones.

    The longest subset is windowed over the whole book. The book is then a partition of
    segments: each window of a longer subset, and the leftover stretches between them (which
    keep the parent of the segment they came from, or none). Every shorter subset is windowed
    inside each segment separately with the same policy, so its windows never cross a longer
    window's boundary and each records the innermost longer window containing it. One book
    thus yields paired series (L inside XL inside 2XL ...) while leftover stretches still give
    candidates. ``breaks`` cut the book into stretches before the longest subset is
    windowed, so no window of any subset reaches across one. Returns windows per subset
    name, in reading order.
    """
    names = [s.name for s in subsets]
    if len(set(names)) != len(names):
        raise ValueError(f"subset names must be unique, got {names}")
    if policy not in POLICIES:
        raise ValueError(f"unknown sampling policy {policy!r}; expected one of {list(POLICIES)}")
    stretches: list[tuple[int, int, NestedWindow | None]] = [
        (start, stop, None) for start, stop in segments(len(chapter_tokens), breaks)
    ]
    result: dict[str, list[NestedWindow]] = {}
    for subset in nesting_order(subsets):
        _check_bounds(subset.lower, subset.upper)
        target = subset.target if policy == "closest" else None
        found: list[NestedWindow] = []
        next_segments: list[tuple[int, int, NestedWindow | None]] = []
        for start, stop, parent in stretches:
            cursor = start
            for first, last in _scan(
                chapter_tokens, start, stop, subset.lower, subset.upper, target
            ):
                window = NestedWindow(subset.name, first, last, parent)
                found.append(window)
                if cursor < first:
                    next_segments.append((cursor, first, parent))
                next_segments.append((first, last + 1, window))
                cursor = last + 1
            if cursor < stop:
                next_segments.append((cursor, stop, parent))
        result[subset.name] = found
        stretches = next_segments
    return {name: result[name] for name in names}
