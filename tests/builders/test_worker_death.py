"""kill -9 of a real `lengthwise build` leaves no worker process behind (issue 14, point 2)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

SPEC = """
name = "kill-test"
version = "0.0.1"
language = "auto"
seed = 1

[[sources]]
kind = "files"
path = "{zh}"
glob = "*.txt"

[[sources]]
kind = "files"
path = "{en}"
glob = "*.txt"

[tokenizers]
primary = "chars"

[[subsets]]
name = "S"
target = 20000
lower = 15000
upper = 25000
count = 2
"""


def _wait_for_workers(process: psutil.Process, count: int, seconds: float) -> list[psutil.Process]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        children = process.children(recursive=True)
        if len(children) >= count:
            return children
        time.sleep(0.05)
    raise AssertionError(f"build started no {count} workers within {seconds} s")


@pytest.mark.slow
def test_killed_build_leaves_no_workers(shared_corpora: Path, tmp_path: Path) -> None:
    spec = tmp_path / "spec.toml"
    spec.write_text(
        SPEC.format(
            zh=shared_corpora / "zh_simplified_four_classics",
            en=shared_corpora / "en_pg_stripped",
        )
    )
    command = [sys.executable, "-m", "lengthwise", "build", str(spec), "--quiet"]
    build = subprocess.Popen(
        [*command, "--work", str(tmp_path / "w"), "--workers", "2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    workers: list[psutil.Process] = []
    try:
        workers = _wait_for_workers(psutil.Process(build.pid), 2, seconds=120)
        time.sleep(0.5)  # let them get busy on a book
        assert build.poll() is None, "the build finished before it could be killed"
        os.kill(build.pid, signal.SIGKILL)
        build.wait(timeout=10)

        _, alive = psutil.wait_procs(workers, timeout=5)

        assert [p.pid for p in alive] == [], "workers outlived the killed build"
    finally:
        build.kill()
        for worker in workers:
            if worker.is_running():
                worker.kill()  # our own orphans, by pid: never leave them to the machine
