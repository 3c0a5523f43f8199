"""A refused command leaves nothing behind: folders it created for a run it then refused.

A stage takes its lock (``WORK/locks/STAGE.lock``) before it reads its inputs, so a run
refused for bad input (a `UserError`: status 2) would leave a new work dir (or ``--out``
folder) holding only that lock. `removed_if_refused(folders)` notes, for each folder a
command may write (the command line wraps every handler with its path arguments and the
default output roots), the first missing folder on the way to it; when the block raises a
`UserError`, it removes the lock files this process wrote there and then every folder
left empty, bottom up. It never removes another file: what a refused run wrote on
purpose stays (stages refuse before they write), and a run started at the same time in
the same new folder keeps its files, and so the folders holding them.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from lengthwise.errors import UserError

LOCK_SUFFIX = ".lock"


def first_missing(folder: Path) -> Path | None:
    """The outermost folder of `folder`'s path that does not exist yet (None: it exists)."""
    missing: Path | None = None
    for candidate in (folder, *folder.parents):
        if candidate.exists() or candidate.is_symlink():
            break
        missing = candidate
    return missing


@contextmanager
def removed_if_refused(folders: Iterable[Path]) -> Iterator[None]:
    """Run the block; on a `UserError`, undo the folders it created on the way to `folders`."""
    created = {first_missing(Path(folder).absolute()) for folder in folders}
    try:
        yield
    except UserError:
        for top in sorted(path for path in created if path is not None):
            _remove_own(top)
        raise


def _remove_own(top: Path) -> None:
    """Remove this process's lock files under `top`, then the folders left empty."""
    mine = f"{os.getpid()}\n"
    for root, folders, files in os.walk(top, topdown=False):
        here = Path(root)
        for name in files:
            path = here / name
            if name.endswith(LOCK_SUFFIX) and _read(path) == mine:
                path.unlink(missing_ok=True)
        for name in folders:
            _rmdir(here / name)
    _rmdir(top)


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _rmdir(path: Path) -> None:
    with suppress(OSError):  # not empty (another run's files), or gone already
        path.rmdir()
