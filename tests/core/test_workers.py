"""worker_pool: workers end with their parent, even after SIGKILL (issue 14, point 2)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import psutil
import pytest

POOL_SCRIPT = textwrap.dedent(
    """
    import sys, time
    from lengthwise.workers import worker_pool
    from lengthwise.tokenizers import process_context

    if __name__ == "__main__":
        with worker_pool(2, process_context()) as pool:
            futures = [pool.submit(time.sleep, 120) for _ in range(2)]
            time.sleep(0.5)
            print("ready", flush=True)
            time.sleep(120)
    """
)


@pytest.mark.parametrize("start_method", ["fork", "spawn"])
def test_pool_workers_die_when_the_parent_is_killed(start_method: str) -> None:
    script = POOL_SCRIPT.replace(
        "process_context()", f"__import__('multiprocessing').get_context({start_method!r})"
    )
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    workers: list[psutil.Process] = []
    try:
        assert parent.stdout is not None and parent.stdout.readline().strip() == "ready"
        workers = [
            p
            for p in psutil.Process(parent.pid).children()
            if "resource_tracker" not in " ".join(p.cmdline())
        ]
        assert len(workers) == 2

        os.kill(parent.pid, signal.SIGKILL)
        parent.wait(timeout=10)
        _, alive = psutil.wait_procs(workers, timeout=5)

        assert alive == []
    finally:
        parent.kill()
        for worker in workers:
            if worker.is_running():
                worker.kill()


def test_a_worker_whose_parent_is_already_gone_exits() -> None:
    # The race the initializer closes: the parent died before the worker armed the signal.
    code = "from lengthwise.workers import die_with_parent; die_with_parent(1); print('alive')"
    finished = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60
    )
    assert finished.returncode == 1
    assert "alive" not in finished.stdout
