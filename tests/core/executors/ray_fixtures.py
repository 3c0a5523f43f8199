"""A private local Ray instance on 127.0.0.1 (no dashboard, 2 CPUs) for one test module,
and what to compare between two work directories built by different executors."""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lengthwise.executors.ray_executor import KILL_ONCE_ENV

# Files whose bytes hold wall-clock times or a pid: compared through `comparable` instead.
TIMED = {"build_report.json", "build_report.md", "build.json"}


@pytest.fixture(scope="module")
def ray_local(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Ray started once per module; yields the kill-once marker (present = disarmed).

    The marker's path goes into the environment before `ray.init`, so every Ray worker
    inherits it; a test arms the hook by deleting the file (see ray_executor._run_call).
    """
    ray = pytest.importorskip("ray")
    marker = tmp_path_factory.mktemp("ray-kill") / "killed-once"
    marker.touch()
    previous = os.environ.get(KILL_ONCE_ENV)
    os.environ[KILL_ONCE_ENV] = str(marker)
    ray.init(
        address="local",
        num_cpus=2,
        include_dashboard=False,
        _node_ip_address="127.0.0.1",
        log_to_driver=False,
    )
    try:
        yield marker
    finally:
        ray.shutdown()
        if previous is None:
            os.environ.pop(KILL_ONCE_ENV, None)
        else:
            os.environ[KILL_ONCE_ENV] = previous


def output_files(work: Path) -> list[str]:
    """Every file of a work directory (locks aside: they hold the builder's pid)."""
    files = [p for p in work.rglob("*") if p.is_file() and p.parent.name != "locks"]
    return sorted(str(p.relative_to(work)) for p in files)


def comparable(path: Path) -> Any:
    """The file's content with wall-clock times removed (bytes for every other file)."""
    if path.suffix == ".sqlite":
        with sqlite3.connect(path) as db:
            return list(db.iterdump())
    if path.name not in TIMED:
        return path.read_bytes()
    if path.suffix == ".md":
        return [line for line in path.read_text("utf-8").splitlines() if " built in " not in line]
    return _without_times(json.loads(path.read_text("utf-8")))


def _without_times(value: Any) -> Any:
    if isinstance(value, dict):
        return {
            k: _without_times(v)
            for k, v in value.items()
            # `outputs` of a completion record hash the timed reports themselves.
            if k not in ("seconds", "created", "outputs")
        }
    if isinstance(value, list):
        return [_without_times(v) for v in value]
    return value
