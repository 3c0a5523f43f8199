"""What makes a stage safe to kill and to run twice: a lock, a verified completion record,
and removal of the temporary files a killed run leaves behind.

Each stage uses three pieces, a few lines each:

- ``StageLock(folder, stage)``: one run of a stage per folder at a time. A second run
  refuses with one line naming the holder's pid (or waits, with ``wait=True`` or
  ``LENGTHWISE_LOCK_WAIT=1``); a lock left by a dead pid is taken over.
- ``CompletionRecord``: the stage's fingerprint and the sha256 of every output, written
  last and atomically. ``is_current`` re-hashes the outputs: a file changed since (by a
  killed run with other settings, or by hand) makes the stage run again.
- ``remove_leftovers``: temporary files and staging folders of killed runs, removed at
  the start of the stage's next run (under its lock, so never a live run's files).
- ``scratch_folder``: a temporary folder inside the work dir (FOLDER/tmp/), never in
  $TMPDIR; ``remove_abandoned_scratch`` removes those whose owner pid is dead.

``crash_point(name)`` is a test hook: with ``LENGTHWISE_CRASH_AT=name`` (or ``name:N``
for the N-th time) the process kills itself with SIGKILL there, so tests kill a real
process at a point they choose.
"""

from __future__ import annotations

import fcntl
import fnmatch
import logging
import os
import re
import shutil
import signal
import tempfile
import time
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

from lengthwise.storage import atomic_write_json, read_json, sha256_file

LOCKS = "locks"
STATE = "state"
# atomic_write_* name their temporary files ".{target}.{random}.tmp".
TEMP_PATTERNS = (".*.tmp",)
WAIT_ENV = "LENGTHWISE_LOCK_WAIT"
CRASH_ENV = "LENGTHWISE_CRASH_AT"

log = logging.getLogger(__name__)


class StageBusy(Exception):
    """Another live process holds the stage's lock (shown as one line by the CLI)."""


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # exists, owned by someone else
    return True


def _read_pid(path: Path) -> int | None:
    try:
        return int(path.read_text(encoding="utf-8").split()[0])
    except (OSError, ValueError, IndexError):
        return None


class StageLock:
    """An exclusive flock on FOLDER/locks/STAGE.lock holding the owner's pid.

    The kernel drops a flock when every descriptor on it closes, so a killed run frees
    the lock itself; but forked workers that outlive their parent keep the descriptor
    open. A lock whose recorded pid is dead is therefore taken over: the file is
    replaced by a fresh one (a new inode, so the orphans' lock no longer matters).
    """

    def __init__(self, folder: Path, stage: str, *, wait: bool | None = None) -> None:
        self.path = Path(folder) / LOCKS / f"{stage}.lock"
        self.stage = stage
        self.wait = os.environ.get(WAIT_ENV, "") not in ("", "0") if wait is None else wait
        self._fd: int | None = None

    def acquire(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                holder = _read_pid(self.path)
                if holder is not None and self._stale(holder):
                    self.path.unlink(missing_ok=True)  # orphans hold the old inode: let them
                    continue
                if self.wait:
                    time.sleep(0.2)
                    continue
                raise StageBusy(
                    f"another `{self.stage}` run holds {self.path} "
                    f"(pid {holder if holder is not None else 'unknown'}); wait for it to "
                    f"finish, or set {WAIT_ENV}=1 to wait"
                ) from None
            if not _same_file(fd, self.path):
                os.close(fd)  # taken over and replaced between open and flock: retry
                continue
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
            self._fd = fd
            return

    def _stale(self, holder: int) -> bool:
        """The recorded holder is dead, and still recorded a moment later (a new holder
        writes its pid right after its flock: never take over from one)."""
        if _pid_alive(holder):
            return False
        before = self.path.stat().st_ino if self.path.exists() else None
        time.sleep(0.2)
        after = self.path.stat().st_ino if self.path.exists() else None
        return before == after and _read_pid(self.path) == holder

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> StageLock:
        self.acquire()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.release()


def _same_file(fd: int, path: Path) -> bool:
    try:
        on_disk = path.stat()
    except FileNotFoundError:
        return False
    held = os.fstat(fd)
    return (held.st_dev, held.st_ino) == (on_disk.st_dev, on_disk.st_ino)


@dataclass
class CompletionRecord:
    """FOLDER/state/STAGE.json: the fingerprint a stage ran with and its outputs' sha256."""

    folder: Path
    stage: str
    fingerprint: str = ""
    outputs: dict[str, str] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def path(self) -> Path:
        return self.folder / STATE / f"{self.stage}.json"

    @classmethod
    def load(cls, folder: Path, stage: str) -> CompletionRecord | None:
        path = Path(folder) / STATE / f"{stage}.json"
        try:
            data = read_json(path)
            return cls(
                Path(folder),
                stage,
                str(data["fingerprint"]),
                {str(k): str(v) for k, v in data["outputs"].items()},
                dict(data.get("extra") or {}),
            )
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None  # absent or damaged: the stage is simply not complete

    @classmethod
    def write(
        cls,
        folder: Path,
        stage: str,
        fingerprint: str,
        outputs: Iterable[Path],
        extra: Mapping[str, Any] | None = None,
    ) -> CompletionRecord:
        """Hash `outputs` (paths inside `folder`) and write the record. Call it last."""
        folder = Path(folder)
        hashes = {str(Path(p).relative_to(folder)): sha256_file(Path(p)) for p in sorted(outputs)}
        record = cls(folder, stage, fingerprint, hashes, dict(extra or {}))
        atomic_write_json(
            record.path,
            {
                "stage": stage,
                "fingerprint": fingerprint,
                "outputs": hashes,
                "extra": record.extra,
            },
        )
        return record

    def stale_outputs(self) -> list[str]:
        """Outputs missing or whose content differs from what the stage wrote."""
        stale = []
        for relative, digest in self.outputs.items():
            path = self.folder / relative
            if not path.is_file() or sha256_file(path) != digest:
                stale.append(relative)
        return stale

    def is_current(self, fingerprint: str, expected: Iterable[Path] = ()) -> bool:
        """Same fingerprint, every `expected` output recorded, every recorded hash verified.

        Outputs changed since the stage wrote them (edited, damaged, left by a killed run
        with other settings) are logged by name: the stage runs again, and says why.
        """
        if self.fingerprint != fingerprint:
            return False
        recorded = set(self.outputs)
        if any(str(Path(p).relative_to(self.folder)) not in recorded for p in expected):
            return False
        stale = self.stale_outputs()
        if stale:
            log.warning(
                "%s: %s changed or missing since %s recorded its sha256; running %s again",
                self.stage,
                ", ".join(stale),
                self.path,
                self.stage,
            )
        return not stale


def is_complete(folder: Path, stage: str, fingerprint: str, expected: Iterable[Path] = ()) -> bool:
    record = CompletionRecord.load(folder, stage)
    return record is not None and record.is_current(fingerprint, expected)


def remove_leftovers(folder: Path, patterns: Iterable[str] = TEMP_PATTERNS) -> list[Path]:
    """Remove entries of `folder` (not recursive) matching `patterns`; return what went.

    Call it while holding the stage's lock: only a killed run can have left them.
    """
    folder = Path(folder)
    if not folder.is_dir():
        return []
    removed = []
    patterns = list(patterns)
    for entry in sorted(folder.iterdir()):
        if not any(fnmatch.fnmatchcase(entry.name, p) for p in patterns):
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)
        removed.append(entry)
    return removed


SCRATCH = "tmp"
# A scratch folder's name carries its owner's pid: FOLDER/tmp/<purpose>-pid<PID>-<random>.
_SCRATCH_OWNER = re.compile(r"-pid(\d+)-")


@contextmanager
def scratch_folder(folder: Path, purpose: str) -> Iterator[Path]:
    """A temporary folder inside `folder` (a work dir): FOLDER/tmp/<purpose>-pid<PID>-*.

    Commands keep their temporary files here, never in the system's temporary folder
    ($TMPDIR): what a killed run leaves is in the work dir, where the next run finds it.
    The folder is removed when the block ends; folders of dead pids are removed first.
    """
    remove_abandoned_scratch(folder)
    # Absolute: a tool run elsewhere (git changes into its work tree) must find it too.
    root = Path(folder).resolve() / SCRATCH
    root.mkdir(parents=True, exist_ok=True)
    path = Path(tempfile.mkdtemp(dir=root, prefix=f"{purpose}-pid{os.getpid()}-"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def remove_abandoned_scratch(folder: Path) -> list[Path]:
    """Remove the scratch folders in FOLDER/tmp whose owner pid is dead (killed runs).

    Safe without a lock: a live owner's folder is never touched.
    """
    root = Path(folder) / SCRATCH
    if not root.is_dir():
        return []
    removed = []
    for entry in sorted(root.iterdir()):
        owner = _SCRATCH_OWNER.search(entry.name)
        if owner is None or _pid_alive(int(owner.group(1))):
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)
        log.info("removed %s (left by an interrupted run)", entry)
        removed.append(entry)
    return removed


_crash_hits: dict[str, int] = {}


def crash_point(name: str) -> None:
    """Test hook: SIGKILL this process here when LENGTHWISE_CRASH_AT names this point."""
    wanted = os.environ.get(CRASH_ENV)
    if not wanted:
        return
    point, _, nth = wanted.rpartition(":")
    if not nth.isdigit():
        point, nth = wanted, "1"
    if point != name:
        return
    _crash_hits[name] = _crash_hits.get(name, 0) + 1
    if _crash_hits[name] >= int(nth):
        os.kill(os.getpid(), signal.SIGKILL)
