"""Per-chapter audit pieces for a build: computed once per distinct rendered chapter.

Pieces live in WORK/cache/audit_pieces.sqlite keyed by the chapter's identity (its
record's text hash `Chapter.sha256` and its heading, which together fix the rendered
text; hashing the rendered chapters again cost a rebuild ~9 ms), the language
profile's hash (the spec's `[audit.languages]` additions included) and DETECTOR_VERSION,
so a rebuild that changes only sampling re-audits nothing: it reads the pieces of the
chapters its samples hold and combines them (builders/audit/joined_audit.py).
SQLite commits are atomic; an unreadable cache is rebuilt. Missing pieces are computed
on the build's executor (local processes or Ray, in batches of about BATCH_CHARS
characters); the store itself, and so the SQLite file, stays in this process.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from pathlib import Path

from lengthwise.builders.audit.chapter_pieces import (
    DETECTOR_VERSION,
    ChapterPieces,
    pieces_of_chapters,
)
from lengthwise.builders.audit.vocabulary import LanguageProfile
from lengthwise.executors import Executor, make_executor
from lengthwise.executors.batches import run_batched
from lengthwise.records import Chapter
from lengthwise.storage import sha256_text

BATCH_CHARS = 2_000_000  # rendered chapter text per executor call


def piece_key(chapter: Chapter, profile: LanguageProfile) -> str:
    """The chapter's pieces' key: `Chapter.sha256` is the hash of its text (set when the
    record is made; books.jsonl is verified by its completion hash), and the rendered
    chapter is its heading and text (builders/joining.render_chapter)."""
    return sha256_text(f"{_profile_hash(profile)}\0{chapter.sha256}\0{chapter.heading}")


@lru_cache(maxsize=16)
def _profile_hash(profile: LanguageProfile) -> str:
    return sha256_text(f"{DETECTOR_VERSION}\0{profile!r}")


class PieceStore:
    """Pieces by key: memory first, then the SQLite file (when given), else computed."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._memory: dict[str, ChapterPieces] = {}
        self._db: sqlite3.Connection | None = None
        if path is not None:
            self._db = _open(path)

    def pieces(
        self,
        chapters: Mapping[str, tuple[str, LanguageProfile]],
        needed: Iterable[str],
        runner: Executor | None = None,
    ) -> dict[str, ChapterPieces]:
        """The pieces of the `needed` keys; every chapter in `chapters` (key -> rendered text,
        profile) missing from the store is audited on `runner` (default: this process) and
        stored, so a later selection of other chapters of the same books reads them instead
        of scanning."""
        stored = self._stored_keys([k for k in chapters if k not in self._memory])
        missing = [k for k in chapters if k not in self._memory and k not in stored]
        computed = run_batched(
            runner or make_executor(workers=1),
            pieces_of_chapters,
            [chapters[key] for key in missing],
            [len(chapters[key][0]) for key in missing],
            BATCH_CHARS,
        )
        fresh = dict(zip(missing, computed, strict=True))
        self._memory.update(fresh)
        self._store(fresh)
        self._memory.update(self._load([k for k in set(needed) if k not in self._memory]))
        return self._memory

    def book_fragments(
        self, key: str, compute: Callable[[], dict[str, dict[int, int]]]
    ) -> dict[str, dict[int, int]]:
        """A book's recurring fragments with their counts per chapter index
        (`fragments.chapter_counts`), stored under `key` (computed on a miss)."""
        stored_key = f"fragments:{key}"
        if self._db is not None:
            row = self._db.execute(
                "SELECT data FROM pieces WHERE key = ?", (stored_key,)
            ).fetchone()
            if row is not None:
                data = json.loads(row[0])
                return {f: {int(i): n for i, n in counts.items()} for f, counts in data.items()}
        found = compute()
        if self._db is not None:
            with self._db:
                self._db.execute(
                    "INSERT OR REPLACE INTO pieces VALUES (?, ?)",
                    (stored_key, json.dumps(found, ensure_ascii=False, separators=(",", ":"))),
                )
        return found

    def _stored_keys(self, keys: list[str]) -> set[str]:
        if self._db is None:
            return set()
        found: set[str] = set()
        for chunk in _chunks(keys):
            marks = ",".join("?" * len(chunk))
            rows = self._db.execute(f"SELECT key FROM pieces WHERE key IN ({marks})", chunk)
            found.update(key for (key,) in rows)
        return found

    def _load(self, keys: list[str]) -> dict[str, ChapterPieces]:
        if self._db is None or not keys:
            return {}
        found: dict[str, ChapterPieces] = {}
        for chunk in _chunks(keys):
            marks = ",".join("?" * len(chunk))
            rows = self._db.execute(f"SELECT key, data FROM pieces WHERE key IN ({marks})", chunk)
            for key, data in rows:
                found[key] = ChapterPieces.from_json(json.loads(data))
        return found

    def _store(self, fresh: dict[str, ChapterPieces]) -> None:
        if self._db is None or not fresh:
            return
        rows = [
            (key, json.dumps(p.to_json(), ensure_ascii=False, separators=(",", ":")))
            for key, p in fresh.items()
        ]
        with self._db:  # one transaction: all of them or none
            self._db.executemany("INSERT OR REPLACE INTO pieces VALUES (?, ?)", rows)

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None


def _open(path: Path) -> sqlite3.Connection:
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        return _connect(path)
    except sqlite3.DatabaseError:
        path.unlink(missing_ok=True)  # a cache only: start it again
        return _connect(path)


def _connect(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, timeout=60.0)
    db.execute("CREATE TABLE IF NOT EXISTS pieces (key TEXT PRIMARY KEY, data TEXT NOT NULL)")
    return db


def _chunks(keys: list[str], size: int = 500) -> Iterable[list[str]]:
    for i in range(0, len(keys), size):
        yield keys[i : i + size]
