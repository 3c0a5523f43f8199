"""Skip reading local source files whose stat says they have not changed since the last build.

A rebuild that changes only sampling settings needs of each source file its id, raw hash,
title, language and warnings (for the build's fingerprint and the sources report), not its
text: the corpus stage's outputs are reused. `SourceStatCache` remembers those fields per
file (WORK/cache/source_stats.json) with the file's stat, and hands back a *header*
document (text "", no table of contents) when the stat still matches.

How a changed file is still noticed: the cached entry must match the file's size,
mtime_ns, ctime_ns, inode and device. Writing, touching, `chmod`, copying over or renaming
another file onto the path all change at least one of them (ctime changes on every write
and every metadata change, and cannot be set by a program). One gap remains: a rewrite of
the same size within the file system's timestamp granularity of the moment its stat was
recorded ("racy" entries, as git calls them). So an entry whose mtime or ctime lies less
than RACY_NS before the cache file's own mtime (when it was recorded: the cache is written
right after the files are read) is never trusted: that file is read and hashed again,
and the cache rewritten, next time. The cache file holds no clock reading of its own, so
two builds of the same files write the same bytes. Any doubt (unreadable cache, other
tool version, other language override) means reading the file as before.

Header documents are only for deciding whether anything changed; a caller that needs the
text reads the sources again without the cache (builders/build.py does on a corpus miss).
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict
from pathlib import Path
from typing import Any

from lengthwise import __version__
from lengthwise.records import SourceDocument
from lengthwise.storage import atomic_write_json

CACHE_VERSION = 3  # 3: .txt files with Markdown headings are read as Markdown; display titles
RACY_NS = 2_000_000_000  # 2 s: coarser than any file system's timestamp tick
STAT_FIELDS = ("st_size", "st_mtime_ns", "st_ctime_ns", "st_ino", "st_dev")
# SourceDocument fields kept in an entry: everything but the text and the embedded TOC.
_HEADER_OMITS = ("text", "toc")


def file_stat(path: Path) -> list[int]:
    result = os.stat(path)
    return [int(getattr(result, name)) for name in STAT_FIELDS]


class SourceStatCache:
    """Header documents of unchanged local files, by path and language override."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._entries = _load(path)
        self._recorded_ns = _mtime_ns(path)
        self._seen: dict[str, dict[str, Any]] = {}
        self._racy = False  # some entry was too recent: rewrite the cache to date it anew
        self.hits = 0

    def lookup(self, file: Path, language: str | None) -> SourceDocument | None:
        """The header document of `file` when its stat matches a trusted entry, else None."""
        key = _key(file, language)
        entry = self._entries.get(key)
        if entry is None:
            return None
        try:
            stat = file_stat(file)
        except OSError:
            return None
        if stat != entry["stat"]:
            return None
        if _racy(stat, self._recorded_ns):
            self._racy = True
            return None
        fields = {k: v for k, v in entry["document"].items() if k not in _HEADER_OMITS}
        try:
            document = SourceDocument(text="", **fields)
        except TypeError:  # written by an older record layout: read the file
            return None
        self._seen[key] = entry
        self.hits += 1
        return document

    def remember(
        self, file: Path, language: str | None, stat: list[int], doc: SourceDocument
    ) -> None:
        """Record `doc` as read from `file` whose stat before reading was `stat`."""
        fields = {k: v for k, v in asdict(doc).items() if k not in _HEADER_OMITS}
        entry = {"stat": stat, "document": fields}
        self._seen[_key(file, language)] = entry

    def save(self) -> None:
        """Keep the entries of the files met in this run (others are forgotten)."""
        if self._seen != self._entries or self._racy:
            body = {"version": _version(), "entries": self._seen}
            atomic_write_json(self.path, body)


def _key(file: Path, language: str | None) -> str:
    return f"{language or ''}\0{file}"


def _mtime_ns(path: Path) -> int:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return 0


def _racy(stat: list[int], recorded_ns: int) -> bool:
    mtime_ns, ctime_ns = stat[1], stat[2]
    return max(mtime_ns, ctime_ns) > recorded_ns - RACY_NS


def _version() -> str:
    return f"{__version__}/{CACHE_VERSION}"


def _load(path: Path) -> dict[str, dict[str, Any]]:
    try:
        body = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(body, dict) or body.get("version") != _version():
        return {}
    entries = body.get("entries")
    return entries if isinstance(entries, dict) else {}
