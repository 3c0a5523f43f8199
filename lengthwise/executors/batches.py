"""Many small records through an executor in batches: one call per batch, not per record.

A Ray task or a pool submission costs far more than auditing one chapter, so a stage
hands `run_batched` its records with a size each (characters); consecutive records are
cut into batches of about `max_size`, the largest batches start first, and the results
come back flattened in input order. The batching changes only where records are
computed, never what: the batch function maps a plain per-record function over its
batch, so outputs are identical whatever the executor, the workers or the batch size.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from lengthwise.executors import Executor

T = TypeVar("T")
R = TypeVar("R")


def batch_bounds(sizes: Sequence[int], max_size: int) -> list[tuple[int, int]]:
    """[start, end) of consecutive batches of about `max_size` (at least one record each)."""
    bounds: list[tuple[int, int]] = []
    start, load = 0, 0
    for index, size in enumerate(sizes):
        if index > start and load + size > max_size:
            bounds.append((start, index))
            start, load = index, 0
        load += size
    if start < len(sizes):
        bounds.append((start, len(sizes)))
    return bounds


def run_batched(
    runner: Executor,
    function: Callable[..., list[R]],
    items: Sequence[T],
    sizes: Sequence[int],
    max_size: int,
    shared: tuple[Any, ...] = (),
) -> list[R]:
    """`function(batch, *shared)` per batch of `items`, results flattened in input order.

    `function` must be a module-level function of the lengthwise package (Ray and
    spawned workers import it by name). A single batch on the local executor runs in
    this process: a pool would cost more than the work.
    """
    bounds = batch_bounds(sizes, max_size)
    batches = [list(items[start:end]) for start, end in bounds]
    if runner.kind == "local" and (len(batches) <= 1 or runner.workers <= 1):
        return [result for batch in batches for result in function(batch, *shared)]
    loads = [sum(sizes[start:end]) for start, end in bounds]
    order = sorted(range(len(batches)), key=lambda i: -loads[i])
    calls = [(batch, *shared) for batch in batches]
    return [result for part in runner.run_ordered(function, calls, order) for result in part]
