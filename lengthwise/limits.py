"""Resource limits, in one place: what hostile or careless input may cost at most.

Every limit has a name (used in its error message), a default, and an environment
variable that changes it:

- ``archive ratio`` (`LENGTHWISE_MAX_ARCHIVE_RATIO`, default 50): an archive (EPUB) may
  inflate to at most this many times its own size;
- ``archive size`` (`LENGTHWISE_MAX_ARCHIVE_BYTES`, default 1 GiB): ... and to at most
  this many bytes, whatever its ratio;
- ``archive members`` (`LENGTHWISE_MAX_ARCHIVE_MEMBERS`, default 10,000 files);
- ``workers``: every local process pool (lengthwise/workers.py) has at most the machine's
  CPU count of processes, whatever ``--workers`` or ``[executor] workers`` ask: more is
  capped with a warning; ``--workers`` below 1 is refused.

An archive is checked from its central directory before anything is inflated, and
Python's zipfile never inflates a member beyond the size that directory declares (a
longer stream fails its CRC check), so a zip bomb costs a directory read, not its
inflated size. A refusal is a `LimitExceeded` (a `UserError`): one line naming the file,
the limit, its value and the variable that changes it.
"""

from __future__ import annotations

import argparse
import logging
import os
import zipfile
from dataclasses import dataclass
from io import BytesIO

from lengthwise.errors import UserError

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Limit:
    """One limit: its name in messages, its default and the variable that overrides it."""

    name: str
    env: str
    default: int

    @property
    def value(self) -> int:
        """The limit in force: the environment variable when set to a positive integer."""
        raw = os.environ.get(self.env, "").strip()
        if not raw:
            return self.default
        try:
            value = int(raw.replace("_", ""))
        except ValueError:
            raise UserError(f"{self.env}={raw!r}: expected a positive integer") from None
        if value < 1:
            raise UserError(f"{self.env}={raw!r}: expected a positive integer")
        return value

    def refuse(self, where: str, what: str) -> LimitExceeded:
        """The error for `where` going over this limit; `what` says by how much."""
        return LimitExceeded(
            f"{where}: {what}: over the {self.name} limit of {self.value:,} "
            f"(set {self.env} to change it)"
        )


class LimitExceeded(UserError):
    """An input goes over a resource limit; the message names the input and the limit."""


ARCHIVE_RATIO = Limit("archive ratio", "LENGTHWISE_MAX_ARCHIVE_RATIO", 50)
ARCHIVE_BYTES = Limit("archive size", "LENGTHWISE_MAX_ARCHIVE_BYTES", 1 << 30)
ARCHIVE_MEMBERS = Limit("archive members", "LENGTHWISE_MAX_ARCHIVE_MEMBERS", 10_000)
LIMITS = (ARCHIVE_RATIO, ARCHIVE_BYTES, ARCHIVE_MEMBERS)


def check_archive(data: bytes, where: str) -> int:
    """Raise `LimitExceeded` unless the zip archive `data` stays within the archive limits;
    return its inflated size. Reads only the central directory: nothing is inflated.

    A file that is not a readable zip passes (its reader reports that, with its own words).
    """
    try:
        with zipfile.ZipFile(BytesIO(data)) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        return 0
    if len(members) > ARCHIVE_MEMBERS.value:
        raise ARCHIVE_MEMBERS.refuse(where, f"{len(members):,} files in the archive")
    inflated = 0
    for member in members:
        inflated += member.file_size
        if inflated > ARCHIVE_BYTES.value:
            raise ARCHIVE_BYTES.refuse(where, f"inflates to more than {inflated:,} bytes")
    ratio = inflated / max(len(data), 1)
    if ratio > ARCHIVE_RATIO.value:
        raise ARCHIVE_RATIO.refuse(
            where, f"{len(data):,} bytes inflate to {inflated:,} ({ratio:,.0f}x)"
        )
    return inflated


def cpu_count() -> int:
    """CPUs this process may use (its affinity where the platform says)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


_warned: set[int] = set()  # requested counts already reported (several pools per command)


def cap_workers(requested: int) -> int:
    """`requested` local worker processes, at most the CPU count (said once per value, as a
    warning); below 1 is a `UserError`. Ray tasks are not capped: a cluster has more CPUs."""
    if requested < 1:
        raise UserError(f"workers {requested}: must be at least 1")
    cpus = cpu_count()
    if requested > cpus:
        if requested not in _warned:
            _warned.add(requested)
            log.warning("workers %d capped at %d, the CPU count of this machine", requested, cpus)
        return cpus
    return requested


def workers_arg(text: str) -> int:
    """argparse ``type=`` for ``--workers``: a whole number from 1 (local pools cap it at the
    CPU count: `cap_workers`, called by lengthwise.workers.worker_pool)."""
    try:
        requested = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if requested < 1:
        raise argparse.ArgumentTypeError(f"{requested} is below 1 (at least one process)")
    return requested
