"""Process pools whose workers die with the process that started them.

A `ProcessPoolExecutor` worker notices its parent's death only when it next talks to the
call queue; a worker busy on a large book after `kill -9` of `lengthwise build` ran on for
minutes, holding hundreds of MB. Each worker therefore asks the kernel to SIGKILL it when
its parent dies (Linux `prctl(PR_SET_PDEATHSIG)`); elsewhere a daemon thread polls the
parent id. Both check once for a parent that died before the worker could ask.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import multiprocessing.context
import os
import signal
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor

from lengthwise.limits import cap_workers

log = logging.getLogger(__name__)

_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
_POLL_SECONDS = 1.0


def worker_pool(
    max_workers: int, mp_context: multiprocessing.context.BaseContext | None = None
) -> ProcessPoolExecutor:
    """A ProcessPoolExecutor whose workers exit when this process dies, however it dies;
    never more processes than CPUs (lengthwise.limits.cap_workers)."""
    return ProcessPoolExecutor(
        max_workers=cap_workers(max_workers),
        mp_context=mp_context,
        initializer=die_with_parent,
        initargs=(os.getpid(),),
    )


def die_with_parent(parent_pid: int) -> None:
    """Pool initializer: arrange for this worker to end when `parent_pid` ends."""
    if not (sys.platform.startswith("linux") and _set_parent_death_signal()):
        threading.Thread(target=_watch_parent, args=(parent_pid,), daemon=True).start()
    if os.getppid() != parent_pid:  # the parent died before the signal was armed
        os._exit(1)


def _set_parent_death_signal() -> bool:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
        if libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0:
            return True
        log.debug("prctl(PR_SET_PDEATHSIG) failed: errno %d", ctypes.get_errno())
    except (OSError, AttributeError) as exc:
        log.debug("prctl unavailable: %s", exc)
    return False


def _watch_parent(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        time.sleep(_POLL_SECONDS)
    os._exit(1)
