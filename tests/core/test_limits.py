"""Worker limits (lengthwise/limits.py): `--workers 100000` started 590 processes for one
book and `--workers -1` ended in a traceback. Now: capped at the CPU count with a message,
and below 1 is one line and exit 2, before anything is read or written."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from lengthwise.executors import make_executor
from lengthwise.limits import cpu_count
from lengthwise.spec_scaling import ExecutorConfig
from lengthwise.workers import worker_pool

BOOK = "\n\n".join(
    f"CHAPTER {n}.\n\n" + "She looked at the river and thought of nothing at all.\n" * 30
    for n in range(1, 6)
)


def _spec(tmp_path: Path) -> Path:
    (tmp_path / "books").mkdir()
    (tmp_path / "books" / "river.txt").write_text(BOOK, encoding="utf-8")
    spec = tmp_path / "spec.toml"
    spec.write_text(
        'name = "river"\n[[sources]]\nkind = "files"\npath = "books"\n'
        '[tokenizers]\nprimary = "chars"\n'
        '[[subsets]]\nname = "S"\ntarget = 2000\nlower = 1000\nupper = 3000\ncount = 1\n',
        encoding="utf-8",
    )
    return spec


def _lengthwise(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "lengthwise", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.mark.parametrize("workers", ["-1", "0", "many"])
def test_workers_below_one_are_one_line_and_exit_2(tmp_path: Path, workers: str) -> None:
    spec = _spec(tmp_path)
    done = _lengthwise("build", str(spec), f"--workers={workers}", cwd=tmp_path)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("lengthwise build: error: argument --workers: ")
    assert not (tmp_path / "lw-work").exists()


def test_more_workers_than_cpus_are_capped_with_a_message(tmp_path: Path) -> None:
    spec = _spec(tmp_path)
    done = _lengthwise("build", str(spec), "--workers", "100000", "--quiet", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    cpus = cpu_count()
    warnings = [line for line in done.stderr.splitlines() if "capped" in line]
    assert warnings == [
        f"WARNING lengthwise.limits: workers 100000 capped at {cpus}, the CPU count of this machine"
    ]  # once, however many pools the build starts
    assert "river: built" in done.stdout


def test_a_spec_executor_asking_for_more_workers_than_cpus_is_capped() -> None:
    config = ExecutorConfig(workers=100_000)
    assert make_executor(config).workers == cpu_count()
    assert make_executor(config, workers=1).workers == 1


def test_no_local_pool_has_more_processes_than_cpus() -> None:
    with worker_pool(100_000) as pool:
        assert vars(pool)["_max_workers"] == cpu_count()  # what the pool will start, at most
