"""StageLock, CompletionRecord and leftovers, with real processes where a lock is involved."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from lengthwise.stage_state import (
    CompletionRecord,
    StageBusy,
    StageLock,
    is_complete,
    remove_abandoned_scratch,
    remove_leftovers,
    scratch_folder,
)

HOLD = textwrap.dedent(
    """
    import os, sys, time
    from pathlib import Path
    from lengthwise.stage_state import StageLock
    lock = StageLock(Path(sys.argv[1]), "draft")
    lock.acquire()
    if sys.argv[2] == "fork":  # a worker that outlives its parent keeps the flock
        if os.fork() == 0:
            time.sleep(60)
            os._exit(0)
    Path(sys.argv[3]).write_text(str(os.getpid()))
    time.sleep(60)
    """
)


def hold_lock(folder: Path, tmp_path: Path, mode: str = "plain") -> subprocess.Popen[bytes]:
    ready = tmp_path / f"ready-{mode}"
    process = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(folder), mode, str(ready)], start_new_session=True
    )
    deadline = time.monotonic() + 30
    while not ready.exists():
        assert process.poll() is None, "the lock holder died"
        assert time.monotonic() < deadline, "the lock holder never took the lock"
        time.sleep(0.05)
    return process


def test_second_run_refused_naming_the_holder_pid(tmp_path: Path) -> None:
    holder = hold_lock(tmp_path, tmp_path)
    try:
        with pytest.raises(StageBusy, match=rf"`draft` run .*\(pid {holder.pid}\)"):
            StageLock(tmp_path, "draft").acquire()
        with StageLock(tmp_path, "build"):  # other stages are not blocked
            pass
    finally:
        os.killpg(holder.pid, signal.SIGKILL)
        holder.wait()
    with StageLock(tmp_path, "draft") as lock:  # the kernel dropped the dead holder's flock
        assert lock.path.read_text().strip() == str(os.getpid())


def test_stale_lock_of_a_dead_pid_is_taken_over_even_if_orphans_hold_it(tmp_path: Path) -> None:
    holder = hold_lock(tmp_path, tmp_path, "fork")
    os.kill(holder.pid, signal.SIGKILL)  # the parent dies; its forked child keeps the flock
    holder.wait()
    try:
        with StageLock(tmp_path, "draft") as lock:
            assert lock.path.read_text().strip() == str(os.getpid())
    finally:
        os.killpg(holder.pid, signal.SIGKILL)


def test_waiting_run_gets_the_lock_once_the_holder_ends(tmp_path: Path) -> None:
    holder = hold_lock(tmp_path, tmp_path)
    started = time.monotonic()
    subprocess.Popen(["sh", "-c", f"sleep 1; kill -9 -{holder.pid}"])
    with StageLock(tmp_path, "draft", wait=True):
        assert time.monotonic() - started >= 0.9
    holder.wait()


def test_completion_record_verifies_every_output_hash(tmp_path: Path) -> None:
    first, second = tmp_path / "out" / "a.jsonl", tmp_path / "b.md"
    first.parent.mkdir()
    first.write_text("rows\n")
    second.write_text("report\n")
    CompletionRecord.write(tmp_path, "stage", "fp-1", [first, second])
    assert is_complete(tmp_path, "stage", "fp-1", [first, second])
    assert not is_complete(tmp_path, "stage", "fp-2", [first, second])  # other inputs
    assert not is_complete(tmp_path, "stage", "fp-1", [first, tmp_path / "c"])  # unrecorded
    first.write_text("rows of a killed run with other settings\n")
    record = CompletionRecord.load(tmp_path, "stage")
    assert record is not None and record.stale_outputs() == ["out/a.jsonl"]
    assert not is_complete(tmp_path, "stage", "fp-1", [first, second])
    second.unlink()
    first.write_text("rows\n")
    assert not is_complete(tmp_path, "stage", "fp-1")
    (tmp_path / "state" / "stage.json").write_text("{not json")
    assert CompletionRecord.load(tmp_path, "stage") is None


def test_remove_leftovers_only_removes_matching_entries(tmp_path: Path) -> None:
    (tmp_path / ".3XL.parquet.x1y2.tmp").write_bytes(b"")
    staging = tmp_path / ".v0.1.0.staging-abc"
    staging.mkdir()
    (staging / "manifest.json").write_text("{}")
    (tmp_path / "3XL.parquet").write_bytes(b"data")
    removed = remove_leftovers(tmp_path, [".*.tmp", ".v*.staging-*"])
    assert sorted(p.name for p in removed) == [".3XL.parquet.x1y2.tmp", ".v0.1.0.staging-abc"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["3XL.parquet"]


def test_scratch_folders_of_dead_runs_are_removed_live_ones_kept(tmp_path: Path) -> None:
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    left = tmp_path / "tmp" / f"validate-pid{dead.stdout.strip()}-x1y2"
    (left / "cache").mkdir(parents=True)
    with scratch_folder(tmp_path, "validate") as mine:
        assert mine.parent == tmp_path / "tmp" and mine.is_dir()
        assert not left.exists()  # a killed run's folder: removed
        assert remove_abandoned_scratch(tmp_path) == []  # this live process's: kept
        assert mine.is_dir()
    assert list((tmp_path / "tmp").iterdir()) == []
