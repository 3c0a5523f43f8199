"""Processes by pid: who holds a port, is a pid still the process we started, end a group.

`annotate serve` starts Label Studio in its own session, so a `serve` killed with
SIGKILL leaves it running. A later `serve` finds it by pid, and tells a recycled pid
from it by the process's start time, which server.json records.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time

import psutil

_START_TIME_SLACK = 1.0  # seconds: create_time is rounded differently across reads


def start_time(pid: int) -> float | None:
    """When process `pid` started (epoch seconds), or None if there is none."""
    try:
        return float(psutil.Process(pid).create_time())
    except (psutil.NoSuchProcess, psutil.AccessDenied, ValueError):
        return None


def is_running(pid: int, started: float | None) -> bool:
    """Process `pid` exists, is not a zombie, and (if known) started at `started`."""
    try:
        process = psutil.Process(pid)
        if process.status() == psutil.STATUS_ZOMBIE:
            return False
        created = process.create_time()
    except (psutil.NoSuchProcess, psutil.AccessDenied, ValueError):
        return False
    return started is None or abs(created - started) <= _START_TIME_SLACK


def describe(pid: int) -> str:
    """`pid 123 (python3 -m http.server 8080)`: enough to find and stop it."""
    try:
        process = psutil.Process(pid)
        command = " ".join(" ".join(process.cmdline()).split()) or process.name()
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return f"pid {pid}"
    short = command if len(command) <= 120 else command[:117] + "..."
    return f"pid {pid} ({short})"


def port_holder(port: int) -> str:
    """Which process listens on TCP `port`, in words (for a one-line error)."""
    try:
        connections = psutil.net_connections(kind="inet")
    except (psutil.AccessDenied, OSError):
        return "another process (this user cannot see which)"
    pids = sorted(
        {
            c.pid
            for c in connections
            if c.laddr and c.laddr.port == port and c.status == psutil.CONN_LISTEN and c.pid
        }
    )
    if not pids:
        return "another process (this user cannot see which)"
    return ", ".join(describe(pid) for pid in pids)


def end_process_group(pid: int, sig: signal.Signals, timeout: float) -> None:
    """Signal the process group led by `pid`; SIGKILL it if it outlives `timeout`."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, sig)
    if not _wait_gone(pid, timeout):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGKILL)
        _wait_gone(pid, 10.0)


def _wait_gone(pid: int, timeout: float) -> bool:
    try:
        psutil.Process(pid).wait(timeout=timeout)
    except psutil.NoSuchProcess:
        return True
    except psutil.TimeoutExpired:
        return False
    return True


def wait_for_exit(pid: int, poll: float = 1.0) -> None:
    """Block until `pid` (not our child) is gone."""
    while is_running(pid, None):
        time.sleep(poll)
