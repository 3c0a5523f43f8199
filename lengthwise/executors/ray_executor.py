"""The `ray` executor: each call is a Ray task, on a private local instance or a cluster.

Tasks reserve `num_cpus` (and `memory_mb`) each; Ray places them. A task whose worker
process dies (killed, out of memory, node lost) is run again up to `max_retries` times;
an exception raised by the function itself is not retried (it would raise again) and
reaches the caller. At most `2 x workers` tasks are submitted ahead, so a corpus far
larger than the object store streams through it. Results are yielded in input order.
"""

from __future__ import annotations

import logging
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final, Literal, TypeVar

from lengthwise.extras import require
from lengthwise.spec_scaling import ExecutorConfig

R = TypeVar("R")
log = logging.getLogger(__name__)

# Test hook: the first task to create this file (any worker) SIGKILLs its own worker
# process after computing its result, so Ray must retry it (tests/core/executors).
KILL_ONCE_ENV: Final = "LENGTHWISE_RAY_KILL_ONCE"
LOCAL_HOST: Final = "127.0.0.1"


class RayExecutor:
    kind: Literal["ray"] = "ray"
    inherits_memory = False

    def __init__(self, config: ExecutorConfig) -> None:
        require("the ray executor", "ray")
        self.config = config

    @property
    def workers(self) -> int:
        if self.config.workers is not None:
            return self.config.workers
        import ray

        if ray.is_initialized():
            resources = ray.cluster_resources()  # type: ignore[no-untyped-call]
            cpus = float(resources.get("CPU", 1.0))
            return max(1, int(cpus // self.config.num_cpus))
        return max(1, int((os.cpu_count() or 1) // self.config.num_cpus))

    def run_ordered(
        self,
        function: Callable[..., R],
        calls: Sequence[tuple[Any, ...]],
        order: Sequence[int] | None = None,
    ) -> Iterator[R]:
        import ray

        started_here = connect(self.config)
        try:
            remote: Any = ray.remote(_run_call).options(**self._task_options())
            yield from _ordered_results(
                ray, remote, function, calls, order, window=max(4, 2 * self.workers)
            )
        finally:
            if started_here:
                ray.shutdown()

    def _task_options(self) -> dict[str, Any]:
        options: dict[str, Any] = {
            "num_cpus": self.config.num_cpus,
            "max_retries": self.config.max_retries,
            "retry_exceptions": False,
        }
        if self.config.memory_mb is not None:
            options["memory"] = self.config.memory_mb * 1024 * 1024
        return options


def connect(config: ExecutorConfig) -> bool:
    """Join Ray as `config` says unless this process already has; True if started here.

    No address: a private instance on 127.0.0.1 with no dashboard, sized by `workers`.
    """
    import ray

    if ray.is_initialized():
        return False
    quiet: dict[str, Any] = {"log_to_driver": False, "logging_level": logging.WARNING}
    if config.address:
        ray.init(address=config.address, **quiet)
    else:
        cpus = None if config.workers is None else max(1, round(config.workers * config.num_cpus))
        ray.init(
            address="local",
            num_cpus=cpus,
            include_dashboard=False,
            _node_ip_address=LOCAL_HOST,
            **quiet,
        )
    return True


def _ordered_results(
    ray: Any,
    remote: Any,
    function: Callable[..., R],
    calls: Sequence[tuple[Any, ...]],
    order: Sequence[int] | None,
    window: int,
) -> Iterator[R]:
    to_start = iter(order if order is not None else range(len(calls)))
    pending: dict[Any, int] = {}  # object ref -> input index
    done: dict[int, R] = {}
    for next_index in range(len(calls)):
        while next_index not in done:
            while len(pending) < window:
                index = next(to_start, None)
                if index is None:
                    break
                pending[remote.remote(function, calls[index])] = index
            finished, _ = ray.wait(list(pending), num_returns=1)
            for ref in finished:
                done[pending.pop(ref)] = ray.get(ref)
        yield done.pop(next_index)


def _run_call(function: Callable[..., R], call: tuple[Any, ...]) -> R:
    """The task body: the stage's own function, unchanged."""
    result = function(*call)
    marker = os.environ.get(KILL_ONCE_ENV)
    if marker and _claim(marker):
        os.kill(os.getpid(), signal.SIGKILL)
    return result


def _claim(path: str) -> bool:
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return False
    return True
