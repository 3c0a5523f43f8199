"""The one request cache of a work directory: `WORK/cache/llm.sqlite`, shared by every role.

Probe, drafter, locator and judge all read and write this file, so an answer one role
paid for is never paid for again by a rerun. Earlier versions kept probe, draft and
locate answers in `WORK/cache/llm_requests.sqlite`: on first open its rows are copied
into llm.sqlite (existing keys win; keys did not change) and the old file is renamed
`llm_requests.sqlite.migrated`, so the copy happens once and nothing is lost.

Evaluation runs keep their own cache in the run folder (`request-cache.sqlite`): a run
folder is self-contained and portable (copy it elsewhere and it resumes with every
answer), and a shared evaluated model never mixes with the spec's roles.
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from typing import Final

from lengthwise.llm.cache import RequestCache
from lengthwise.workdir import WorkDir

log = logging.getLogger(__name__)

WORK_CACHE: Final = "llm.sqlite"
LEGACY_CACHE: Final = "llm_requests.sqlite"  # probe/draft/locate before the merge


def work_cache_path(work_root: Path) -> Path:
    return WorkDir(Path(work_root)).llm_cache


def open_work_cache(work_root: Path) -> RequestCache:
    """The work directory's request cache, with a legacy cache file merged in once."""
    cache = RequestCache(work_cache_path(work_root))
    legacy = cache.path.with_name(LEGACY_CACHE)
    if legacy.is_file():
        copied = _merge(legacy, cache.path)
        legacy.rename(legacy.with_name(LEGACY_CACHE + ".migrated"))
        for suffix in ("-wal", "-shm"):
            legacy.with_name(LEGACY_CACHE + suffix).unlink(missing_ok=True)
        log.info("merged %d cached answers from %s into %s", copied, legacy, cache.path)
    return cache


def _merge(legacy: Path, target: Path) -> int:
    """Copy `legacy`'s rows into `target` (keys already there are kept); the count copied."""
    with RequestCache(legacy):  # creates the table if the legacy file somehow lacks it
        pass
    db = sqlite3.connect(target, timeout=60.0)
    try:
        before = db.execute("SELECT COUNT(*) FROM results").fetchone()[0]
        db.execute("ATTACH DATABASE ? AS legacy", (str(legacy),))
        db.execute("INSERT OR IGNORE INTO results SELECT * FROM legacy.results")
        db.commit()
        db.execute("DETACH DATABASE legacy")
        after = db.execute("SELECT COUNT(*) FROM results").fetchone()[0]
    finally:
        db.close()
    return int(after - before)
