"""Which files this process wrote while a stage computed: they go into its completion record.

The stage runner opens ``recording_writes()`` around ``compute``; every atomic write
(lengthwise.storage) calls ``note_written``. The completion record then holds the sha256
of each file the stage wrote, not only the ones its plan named, so a later edit of any of
them makes the stage run again. Append-only logs (lengthwise.jsonl) are not atomic
writes: a stage names its log among its planned outputs (the draft stage does).

A plain set per recording, shared by every thread of the process (the parquet writers
run in a thread pool, which does not carry context variables); forked workers write
only caches, which verify their own entries.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

_active: list[set[Path]] = []
_lock = threading.Lock()


def note_written(path: Path | str) -> None:
    """Record that `path` was (re)written, in every recording now open."""
    if not _active:
        return
    with _lock:
        for journal in _active:
            journal.add(Path(path))


@contextmanager
def recording_writes() -> Iterator[set[Path]]:
    """Collect the paths written until the block ends (as the writers named them)."""
    journal: set[Path] = set()
    with _lock:
        _active.append(journal)
    try:
        yield journal
    finally:
        with _lock:
            # Remove this recording itself (sets compare by value: two may be equal).
            _active[:] = [j for j in _active if j is not journal]
