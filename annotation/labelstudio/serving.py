"""`annotate serve` in the foreground, and what it does with a server an earlier one left.

WORK/labelstudio/server.json records the server's pid and start time and the pid of
the `serve` that owns it, written as soon as the process exists. A `serve` killed
with SIGKILL cannot stop Label Studio (it runs in its own session), so the next
`serve` reads that file first:

- the recorded process is gone: the file is stale, start as usual;
- its `serve` still runs: say where, exit 2 (two servers on one SQLite file corrupt it);
- it answers /health on the asked port: adopt it (Ctrl-C stops it as if started here);
- otherwise (hung, or another port asked): stop it, then start a fresh one.
"""

from __future__ import annotations

import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lengthwise.annotation.labelstudio.credentials import Credentials
from lengthwise.annotation.labelstudio.paths import LabelStudioPaths
from lengthwise.annotation.labelstudio.processes import (
    describe,
    end_process_group,
    is_running,
    start_time,
)
from lengthwise.annotation.labelstudio.server import (
    DATABASE_FILE,
    LabelStudioServer,
    LabelStudioServerError,
    health_ok,
)
from lengthwise.storage import atomic_write_json, read_json

HEALTH_GRACE_S = 10.0  # a just-started orphan may need a moment before /health answers


@dataclass(frozen=True)
class ServerRecord:
    url: str
    port: int | None
    pid: int
    started: float | None
    owner_pid: int | None
    owner_started: float | None


def write_server_info(paths: LabelStudioPaths, server: LabelStudioServer, pid: int) -> None:
    """Tell push/pull where the server listens, and a later `serve` whose it is."""
    atomic_write_json(
        paths.server_info,
        {
            "url": server.url,
            "port": server.port,
            "pid": pid,
            "started": start_time(pid),
            "owner_pid": os.getpid(),
            "owner_started": start_time(os.getpid()),
        },
    )


def read_server_record(paths: LabelStudioPaths) -> ServerRecord | None:
    """server.json as written by write_server_info; None when absent or unreadable."""
    try:
        data: Any = read_json(paths.server_info)
        return ServerRecord(
            url=str(data["url"]),
            port=_int_or_none(data.get("port")),
            pid=int(data["pid"]),
            started=_float_or_none(data.get("started")),
            owner_pid=_int_or_none(data.get("owner_pid")),
            owner_started=_float_or_none(data.get("owner_started")),
        )
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None


def _int_or_none(value: Any) -> int | None:
    return int(value) if isinstance(value, int) else None


def _float_or_none(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) else None


def reusable_server(paths: LabelStudioPaths, port: int) -> ServerRecord | None:
    """The earlier server to adopt, or None once any stale or unusable one is gone."""
    record = read_server_record(paths)
    if record is None:
        paths.server_info.unlink(missing_ok=True)
        return None
    if not is_running(record.pid, record.started):
        paths.server_info.unlink(missing_ok=True)
        return None
    owner = record.owner_pid
    if owner is not None and owner != os.getpid() and is_running(owner, record.owner_started):
        raise LabelStudioServerError(
            f"Label Studio for this work dir already runs at {record.url}, served by "
            f"{describe(owner)}; use it, or stop that one first"
        )
    if record.port == port and _healthy_within(record.url, HEALTH_GRACE_S):
        return record
    print(f"stopping the earlier Label Studio {describe(record.pid)}: not answering on port {port}")
    end_process_group(record.pid, signal.SIGTERM, 30.0)
    paths.server_info.unlink(missing_ok=True)
    return None


def _healthy_within(url: str, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not health_ok(url):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.5)
    return True


def serve_foreground(work: Path, credentials: Credentials, port: int) -> int:
    """Start (or adopt) Label Studio for `work` and run until Ctrl-C, SIGTERM or SIGHUP."""
    paths = LabelStudioPaths(work)
    server = LabelStudioServer(work, credentials, port=port)
    earlier = reusable_server(paths, port)
    # A `kill` (SIGTERM) or a closed terminal (SIGHUP) must stop Label Studio too: it runs
    # in its own session, so only our `finally` below ends it.
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _exit_on_signal)
    try:
        if earlier is not None:
            server.adopt(earlier.pid)
            write_server_info(paths, server, earlier.pid)
            print(f"reusing Label Studio (pid {earlier.pid}), left running by an earlier serve")
        else:
            server.check_port()
            _announce_start(paths, server)
            write_server_info(paths, server, server.spawn())
            server.wait_healthy()
        print(f"Label Studio is ready: {server.url}")
        print(f"admin login and API token: {paths.credentials} (keep it private)")
        print("annotators sign up at the same URL; stop the server with Ctrl-C", flush=True)
        return server.wait()
    except KeyboardInterrupt:
        print("stopping Label Studio", flush=True)
        return 0
    finally:
        server.stop()
        paths.server_info.unlink(missing_ok=True)


def _announce_start(paths: LabelStudioPaths, server: LabelStudioServer) -> None:
    first_start = not (paths.data / DATABASE_FILE).exists()
    print(
        f"starting Label Studio on {server.url} (data: {paths.data}; "
        f"{'first start: database migrations take a minute' if first_start else 'restart'}; "
        f"log: {paths.server_log})",
        flush=True,
    )


def _exit_on_signal(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)
