"""The `local` executor: a process pool on this machine (lengthwise/workers.py).

Workers are forked where the platform allows, so a stage can leave its records in a
module global and send only an index (no text is pickled); they die with this process.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future
from typing import Any, Literal, TypeVar

from lengthwise.limits import cap_workers
from lengthwise.tokenizers import process_context
from lengthwise.workers import worker_pool

R = TypeVar("R")


def default_workers() -> int:
    return max(1, min(os.cpu_count() or 1, 8))


class LocalExecutor:
    kind: Literal["local"] = "local"

    def __init__(self, workers: int | None = None) -> None:
        # A spec's [executor] workers, or --workers: never more processes than CPUs.
        self._workers = cap_workers(workers) if workers else default_workers()
        self._context = process_context()

    @property
    def workers(self) -> int:
        return self._workers

    @property
    def inherits_memory(self) -> bool:
        return self._workers > 1 and self._context.get_start_method() == "fork"

    def run_ordered(
        self,
        function: Callable[..., R],
        calls: Sequence[tuple[Any, ...]],
        order: Sequence[int] | None = None,
    ) -> Iterator[R]:
        if self._workers == 1 or not calls:
            yield from (function(*call) for call in calls)
            return
        # No more processes than calls: one book never starts a pool of idle workers.
        with worker_pool(min(self._workers, len(calls)), self._context) as pool:
            futures: dict[int, Future[R]] = {}
            for index in order if order is not None else range(len(calls)):
                futures[index] = pool.submit(function, *calls[index])
            for index in range(len(calls)):
                yield futures.pop(index).result()
