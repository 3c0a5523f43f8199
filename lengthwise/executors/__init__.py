"""Where per-book work runs: this machine's processes (`local`) or Ray tasks (`ray`).

A stage hands `run_ordered` a plain function and one argument tuple per record; the
executor decides where each call runs and yields the results in input order. The
function, its arguments and its results are the same whichever executor runs them, so
outputs are identical byte for byte (tests/core/executors compare every output file).
Ray is the optional extra `lengthwise[ray]`, imported only when a `ray` executor runs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol, TypeVar

from lengthwise.spec_scaling import ExecutorConfig, ExecutorKind

R = TypeVar("R")

__all__ = ["Executor", "ExecutorConfig", "ExecutorKind", "make_executor"]


class Executor(Protocol):
    """Runs calls of one function somewhere; results come back in input order."""

    @property
    def kind(self) -> ExecutorKind: ...

    @property
    def workers(self) -> int:
        """Calls in flight at once (1: in this process, in order)."""
        ...

    @property
    def inherits_memory(self) -> bool:
        """Whether workers are forked from this process (they see its module globals)."""
        ...

    def run_ordered(
        self,
        function: Callable[..., R],
        calls: Sequence[tuple[Any, ...]],
        order: Sequence[int] | None = None,
    ) -> Iterator[R]:
        """`function(*calls[i])` for every i, yielded in input order.

        `order` is the order to start them in (e.g. largest first, so no worker idles at
        the end); None starts them in input order.
        """
        ...


def make_executor(config: ExecutorConfig | None = None, workers: int | None = None) -> Executor:
    """The executor `config` names (default local); `workers` overrides `config.workers`."""
    config = config or ExecutorConfig()
    if workers is not None:
        config = config.model_copy(update={"workers": workers})
    if config.kind == "ray":
        from lengthwise.executors.ray_executor import RayExecutor

        return RayExecutor(config)
    from lengthwise.executors.local import LocalExecutor

    return LocalExecutor(config.workers)
