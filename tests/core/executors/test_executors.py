"""Executors run plain functions and give results in input order, whatever the start order."""

from __future__ import annotations

import argparse
import os

import pytest

from lengthwise.cli_options import executor_from_args
from lengthwise.executors import make_executor
from lengthwise.executors.batches import batch_bounds, run_batched
from lengthwise.spec_scaling import ExecutorConfig
from tests.core.executors.ray_fixtures import ray_local

__all__ = ["ray_local"]


def square_and_pid(x: int) -> tuple[int, int]:
    return x * x, os.getpid()


@pytest.mark.parametrize("workers", [1, 2])
def test_local_results_in_input_order(workers: int) -> None:
    # Builtins only: when threads already run in this process the pool spawns its workers,
    # and a spawned worker cannot import a function defined in a test module.
    executor = make_executor(ExecutorConfig(), workers=workers)
    calls = [(i, 2) for i in range(20)]
    results = list(executor.run_ordered(pow, calls, order=list(range(19, -1, -1))))
    assert results == [i * i for i in range(20)]
    pids = set(executor.run_ordered(os.getpid, [()] * 8, order=list(range(8))))
    assert (pids == {os.getpid()}) if workers == 1 else (os.getpid() not in pids)


@pytest.mark.slow
def test_ray_results_in_input_order_with_a_small_window(ray_local: object) -> None:
    executor = make_executor(ExecutorConfig(kind="ray", workers=1))  # window of 4 tasks
    calls = [(i,) for i in range(25)]
    results = list(executor.run_ordered(square_and_pid, calls, order=list(range(24, -1, -1))))
    assert [r[0] for r in results] == [i * i for i in range(25)]
    assert os.getpid() not in {r[1] for r in results}  # ran in Ray workers


def test_cli_options_override_the_spec_table() -> None:
    spec_table = ExecutorConfig(kind="local", workers=3)
    args = argparse.Namespace(executor="ray", ray_address=None)
    assert executor_from_args(args, spec_table) == ExecutorConfig(kind="ray", workers=3)
    args = argparse.Namespace(executor=None, ray_address="ray://head:10001")
    config = executor_from_args(args, spec_table)
    assert (config.kind, config.address) == ("ray", "ray://head:10001")
    assert executor_from_args(argparse.Namespace(executor=None, ray_address=None)).kind == "local"


def test_batches_of_about_max_size_and_results_in_input_order() -> None:
    sizes = [5, 5, 5, 20, 1, 1]
    assert batch_bounds(sizes, 10) == [(0, 2), (2, 3), (3, 4), (4, 6)]
    assert batch_bounds([], 10) == []
    executor = make_executor(ExecutorConfig(), workers=2)
    # `sorted` of a batch returns a list: a builtin, importable by any worker.
    items = [3, 1, 2, 9, 8, 7]
    assert run_batched(executor, sorted, items, sizes, 10) == [1, 3, 2, 9, 7, 8]
