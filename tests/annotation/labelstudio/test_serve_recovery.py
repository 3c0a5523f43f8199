"""`annotate serve` after a SIGKILL, a busy port or a hung server; private data files.

Real processes throughout: the CLI runs as a subprocess, is killed with SIGKILL, and
the server it leaves is the real Label Studio from .venv-labelstudio.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from lengthwise.annotation.labelstudio import serving
from lengthwise.annotation.labelstudio.paths import LabelStudioPaths
from lengthwise.annotation.labelstudio.processes import is_running, start_time
from lengthwise.annotation.labelstudio.server import (
    LabelStudioServerError,
    health_ok,
    port_is_free,
)

REPO_ROOT = Path(__file__).resolve().parents[3]


class Serve:
    """`lengthwise annotate serve` as a real process, its output read line by line."""

    def __init__(self, work: Path, port: int, executable: Path | None = None) -> None:
        env = dict(os.environ)
        if executable is not None:
            env["LENGTHWISE_LABEL_STUDIO"] = str(executable)
        self.process = subprocess.Popen(
            [str(Path(sys.executable).parent / "lengthwise"), "annotate", "serve", "--work",
             str(work), "--port", str(port)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=REPO_ROOT, env=env,
        )  # fmt: skip
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.output: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def wait_for(self, text: str, timeout: float = 600) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=1)
            except queue.Empty:
                continue
            if line is None:
                break
            self.output.append(line)
            if text in line:
                return "".join(self.output)
        raise AssertionError(f"no {text!r} from serve; output:\n{''.join(self.output)}")


def sleeper() -> subprocess.Popen[bytes]:
    """A real process standing in for a hung server (own session, like Label Studio)."""
    return subprocess.Popen(["sleep", "300"], start_new_session=True)


def dead_pid() -> int:
    done = subprocess.Popen(["true"])
    done.wait()
    return done.pid


def write_record(paths: LabelStudioPaths, port: int, pid: int, owner: int) -> None:
    paths.root.mkdir(parents=True, exist_ok=True)
    paths.server_info.write_text(
        json.dumps(
            {"url": f"http://127.0.0.1:{port}", "port": port, "pid": pid,
             "started": start_time(pid), "owner_pid": owner, "owner_started": start_time(owner)}
        ),
        encoding="utf-8",
    )  # fmt: skip


@pytest.fixture
def listener() -> Iterator[tuple[subprocess.Popen[str], int]]:
    """Another program listening on a port (a real process)."""
    code = (
        "import socket, time; s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(); "
        "print(s.getsockname()[1], flush=True); time.sleep(300)"
    )
    process = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    port = int(process.stdout.readline())
    yield process, port
    process.kill()
    process.wait()


def test_port_held_by_another_program_is_named_in_one_line(
    tmp_path: Path, listener: tuple[subprocess.Popen[str], int]
) -> None:
    holder, port = listener
    serve = Serve(tmp_path / "work", port)
    assert serve.process.wait(timeout=120) == 2
    output = serve.wait_for("error")
    assert "Traceback" not in output
    [line] = output.strip().splitlines()
    assert f"port {port} on 127.0.0.1 is in use by pid {holder.pid} (" in line
    assert "--port" in line


def test_stale_pid_file_is_removed(tmp_path: Path) -> None:
    paths = LabelStudioPaths(tmp_path)
    write_record(paths, 9, dead_pid(), dead_pid())
    assert serving.reusable_server(paths, 9) is None
    assert not paths.server_info.exists()


def test_hung_server_of_a_killed_serve_is_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(serving, "HEALTH_GRACE_S", 1.0)
    paths = LabelStudioPaths(tmp_path)
    hung = sleeper()
    try:
        write_record(paths, 9, hung.pid, dead_pid())  # nothing answers on port 9
        assert serving.reusable_server(paths, 9) is None
        hung.wait(timeout=40)  # raises if it still runs
        assert not paths.server_info.exists()
    finally:
        hung.kill()


def test_server_of_a_live_serve_is_left_alone(tmp_path: Path) -> None:
    paths = LabelStudioPaths(tmp_path)
    server, owner = sleeper(), sleeper()
    try:
        write_record(paths, 9, server.pid, owner.pid)
        with pytest.raises(LabelStudioServerError, match=f"served by pid {owner.pid} "):
            serving.reusable_server(paths, 9)
        assert is_running(server.pid, None) and paths.server_info.exists()
    finally:
        server.kill(), owner.kill()
        server.wait(), owner.wait()


def private(path: Path) -> bool:
    mode = stat.S_IMODE(path.lstat().st_mode)
    return mode == (0o700 if path.is_dir() else 0o600)


@pytest.mark.slow
def test_serve_after_sigkill_reuses_its_server_and_keeps_data_private(
    tmp_path: Path, label_studio_executable: Path, template_database: Path
) -> None:
    from tests.annotation.labelstudio.conftest import free_port

    work, port = tmp_path / "work", free_port()
    paths = LabelStudioPaths(work.resolve())
    paths.data.mkdir(parents=True)
    shutil.copyfile(template_database, paths.data / "label_studio.sqlite3")
    (paths.data / "label_studio.sqlite3").chmod(0o644)  # as an older version left it
    serves: list[Serve] = []
    orphan: int | None = None
    try:
        serves.append(Serve(work, port, label_studio_executable))
        serves[0].wait_for("Label Studio is ready")
        orphan = int(json.loads(paths.server_info.read_text(encoding="utf-8"))["pid"])
        serves[0].process.send_signal(signal.SIGKILL)
        serves[0].process.wait(timeout=30)
        assert is_running(orphan, None) and not port_is_free(port)  # the server outlives it

        serves.append(Serve(work, port, label_studio_executable))
        output = serves[1].wait_for("Label Studio is ready", timeout=120)
        assert f"reusing Label Studio (pid {orphan})" in output
        assert health_ok(f"http://127.0.0.1:{port}")
        assert private(paths.root) and private(paths.data)
        assert all(private(p) for p in paths.data.rglob("*")), sorted(
            f"{p}: {oct(stat.S_IMODE(p.stat().st_mode))}" for p in paths.data.rglob("*")
        )
        serves[1].process.send_signal(signal.SIGTERM)  # stops the adopted server too
        serves[1].process.wait(timeout=60)
        assert not is_running(orphan, None)
        assert not paths.server_info.exists()
    finally:
        for serve in serves:
            if serve.process.poll() is None:
                serve.process.kill()
                serve.process.wait()
        if orphan is not None and is_running(orphan, None):
            os.killpg(orphan, signal.SIGKILL)
