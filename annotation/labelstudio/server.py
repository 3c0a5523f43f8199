"""Start and stop a local Label Studio server for one work directory.

Label Studio runs from its own virtual environment (`scripts/ensure-labelstudio.sh`
creates `.venv-labelstudio`), on 127.0.0.1 only, with SQLite in WORK/labelstudio/data,
the legacy API token enabled from the first start (Label Studio refuses it with 401
when the first start did not enable it), analytics and update checks off, and local
file serving rooted at the work directory so annotators can open original chapters.

Label Studio also reads its settings without the LABEL_STUDIO_ prefix (USERNAME,
PASSWORD, HOST, PORT, DEBUG, ...), so the server gets an environment built from an
allowlist rather than a copy of ours. It silently moves to another port when the
asked one is busy, so we check the port first.

Its database holds the admin's API token in plain text, so the server runs with umask
077 and the data folders are made 0700 and their files 0600 before each start.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

from lengthwise.annotation.labelstudio.credentials import Credentials
from lengthwise.annotation.labelstudio.paths import LabelStudioPaths
from lengthwise.annotation.labelstudio.processes import (
    end_process_group,
    port_holder,
    wait_for_exit,
)
from lengthwise.storage import read_json

DATABASE_FILE = "label_studio.sqlite3"
PRIVATE_UMASK = 0o077  # files Label Studio creates: 0600, folders: 0700
# Inherited only these from our environment; everything else Label Studio sees is set here.
_ALLOWED_ENV = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR", "SSL_CERT_FILE")


class LabelStudioServerError(RuntimeError):
    """The server could not be found, started or reached."""


def make_private(folder: Path) -> None:
    """`folder` and everything in it readable by the owner only (0700 folders, 0600 files)."""
    if not folder.exists():
        return
    folder.chmod(0o700)
    for path in folder.rglob("*"):
        if path.is_symlink():
            continue
        path.chmod(0o700 if path.is_dir() else 0o600)


def find_label_studio() -> Path:
    """The `label-studio` executable: $LENGTHWISE_LABEL_STUDIO, .venv-labelstudio, or PATH."""
    explicit = os.environ.get("LENGTHWISE_LABEL_STUDIO")
    if explicit:
        path = Path(explicit)
        if not path.is_file():
            raise LabelStudioServerError(f"$LENGTHWISE_LABEL_STUDIO: no such file {path}")
        return path
    repo_root = Path(__file__).resolve().parents[2]  # annotation/labelstudio/ -> repo root
    for base in (Path.cwd(), repo_root):
        candidate = base / ".venv-labelstudio" / "bin" / "label-studio"
        if candidate.is_file():
            return candidate
    found = shutil.which("label-studio")
    if found:
        return Path(found)
    raise LabelStudioServerError(
        "Label Studio is not installed: run `bash scripts/ensure-labelstudio.sh` in the "
        "repository (it creates .venv-labelstudio), or set $LENGTHWISE_LABEL_STUDIO to a "
        "label-studio executable"
    )


def server_environment(paths: LabelStudioPaths, credentials: Credentials) -> dict[str, str]:
    """The server's whole environment (see module docstring for why it is an allowlist)."""
    env = {k: v for k, v in os.environ.items() if k in _ALLOWED_ENV}
    env.setdefault("LANG", "C.UTF-8")
    env.update(
        {
            "HOME": str(paths.home),
            "LABEL_STUDIO_BASE_DATA_DIR": str(paths.data),
            "LABEL_STUDIO_USERNAME": credentials.username,
            "LABEL_STUDIO_PASSWORD": credentials.password,
            "LABEL_STUDIO_USER_TOKEN": credentials.token,
            "LABEL_STUDIO_ENABLE_LEGACY_API_TOKEN": "true",
            "LABEL_STUDIO_LOCAL_FILES_SERVING_ENABLED": "true",
            "LABEL_STUDIO_LOCAL_FILES_DOCUMENT_ROOT": str(paths.work_root.resolve()),
            "LATEST_VERSION_CHECK": "false",
            "COLLECT_ANALYTICS": "false",
            "SECRET_KEY": credentials.secret_key,
            "PYTHONUNBUFFERED": "1",
        }
    )
    return env


def port_is_free(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        # Like the server itself: connections of a stopped server in TIME_WAIT do not count.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def health_ok(url: str, timeout: float = 2.0) -> bool:
    try:
        with urllib.request.urlopen(f"{url.rstrip('/')}/health", timeout=timeout) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError):
        return False


class LabelStudioServer:
    """One Label Studio process serving one work directory."""

    def __init__(
        self,
        work_dir: Path,
        credentials: Credentials,
        port: int = 8080,
        executable: Path | None = None,
        template_database: Path | None = None,
    ) -> None:
        self.paths = LabelStudioPaths(work_dir.resolve())
        self.credentials = credentials
        self.port = port
        self.executable = executable
        self.template_database = template_database
        self.process: subprocess.Popen[bytes] | None = None
        self.adopted_pid: int | None = None  # a server a killed `serve` left running

    def adopt(self, pid: int) -> None:
        """Take over a running server of this work dir: stop() and wait() act on it."""
        self.adopted_pid = pid

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 300.0) -> None:
        """Start and wait until /health answers; raises with the log's tail on failure."""
        if self.process is not None and self.process.poll() is None:
            return
        self.spawn()
        self.wait_healthy(timeout)

    def check_port(self) -> None:
        """Raise, naming the process, when another one listens on our port."""
        if not port_is_free(self.port):
            raise LabelStudioServerError(
                f"port {self.port} on 127.0.0.1 is in use by {port_holder(self.port)}; "
                "stop it or choose another with --port"
            )

    def spawn(self) -> int:
        """Start the process without waiting for it to answer; return its pid."""
        self.check_port()
        executable = self.executable or find_label_studio()
        for folder in (self.paths.data, self.paths.texts, self.paths.home):
            folder.mkdir(parents=True, exist_ok=True)
        self._seed_database()
        for folder in (self.paths.data, self.paths.home):
            make_private(folder)
        self.paths.root.chmod(0o700)
        command = [
            str(executable), "start", "--no-browser", "--internal-host", "127.0.0.1",
            "--port", str(self.port), "--data-dir", str(self.paths.data),
        ]  # fmt: skip
        log = os.fdopen(
            os.open(self.paths.server_log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600), "ab"
        )
        try:
            self.process = subprocess.Popen(
                command,
                env=server_environment(self.paths, self.credentials),
                cwd=self.paths.root,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: stop() ends its children too
                umask=PRIVATE_UMASK,
            )
        finally:
            log.close()
        return self.process.pid

    def _seed_database(self) -> None:
        """Copy an already migrated empty database (tests: skips ~25 s of migrations)."""
        target = self.paths.data / DATABASE_FILE
        if self.template_database is not None and not target.exists():
            shutil.copyfile(self.template_database, target)

    def wait_healthy(self, timeout: float = 300.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                raise LabelStudioServerError(
                    f"Label Studio exited with status {self.process.returncode} while starting; "
                    f"last lines of {self.paths.server_log}:\n{self.log_tail()}"
                )
            if health_ok(self.url):
                return
            time.sleep(0.5)
        self.stop()
        raise LabelStudioServerError(
            f"Label Studio did not answer {self.url}/health within {timeout:.0f} s; "
            f"last lines of {self.paths.server_log}:\n{self.log_tail()}"
        )

    def log_tail(self, lines: int = 15) -> str:
        if not self.paths.server_log.is_file():
            return "(no log)"
        text = self.paths.server_log.read_text(encoding="utf-8", errors="replace")
        return "\n".join(text.splitlines()[-lines:])

    def stop(self, timeout: float = 30.0) -> None:
        """Terminate the server's process group (SIGTERM, then SIGKILL)."""
        self._signal(signal.SIGTERM, timeout)

    def kill(self) -> None:
        """Kill at once, as a crash would (tests use it to interrupt a push)."""
        self._signal(signal.SIGKILL, 10.0)

    def _signal(self, sig: signal.Signals, timeout: float) -> None:
        if self.adopted_pid is not None:
            end_process_group(self.adopted_pid, sig, timeout)
            self.adopted_pid = None
        process = self.process
        if process is None:
            return
        if process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, sig)
            try:
                process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=10)
        self.process = None

    def wait(self) -> int:
        """Block until the server exits (for `annotate serve` in the foreground)."""
        if self.adopted_pid is not None:
            wait_for_exit(self.adopted_pid)
            return 1  # not our child: its status is unknown, and it ended without us
        assert self.process is not None
        return self.process.wait()


def read_server_url(paths: LabelStudioPaths) -> str | None:
    """The URL of the server started for this work dir, if it answers."""
    if not paths.server_info.is_file():
        return None
    try:
        url = read_json(paths.server_info).get("url")
    except (ValueError, AttributeError):
        return None
    return str(url) if isinstance(url, str) and health_ok(url) else None


def make_migrated_database(
    target: Path, credentials: Credentials, executable: Path | None = None
) -> Path:
    """Create an empty, fully migrated Label Studio database at `target` (no users).

    Runs `label-studio user` (every command applies the migrations first) against a
    scratch data dir. Used by the test suite to start fresh servers quickly.
    """
    scratch = target.parent / f".{target.name}.scratch"
    shutil.rmtree(scratch, ignore_errors=True)
    paths = LabelStudioPaths(scratch)
    for folder in (paths.data, paths.home):
        folder.mkdir(parents=True, exist_ok=True)
    env = server_environment(paths, credentials)
    for key in ("LABEL_STUDIO_USERNAME", "LABEL_STUDIO_PASSWORD", "LABEL_STUDIO_USER_TOKEN"):
        env.pop(key)  # no user in the template: each server creates its own admin
    result = subprocess.run(
        [str(executable or find_label_studio()), "user", "--username", "nobody@invalid.example",
         "--data-dir", str(paths.data)],
        env=env, cwd=scratch, capture_output=True, timeout=600, check=False,
    )  # fmt: skip
    database = paths.data / DATABASE_FILE
    if not database.is_file():
        raise LabelStudioServerError(
            f"migrating a template database failed ({result.returncode}): "
            f"{result.stderr.decode(errors='replace')[-2000:]}"
        )
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(".tmp")
    shutil.copyfile(database, tmp)
    os.replace(tmp, target)
    shutil.rmtree(scratch, ignore_errors=True)
    return target
