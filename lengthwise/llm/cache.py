"""On-disk request cache: a rerun (after a crash, or with more samples) repeats no finished call.

The key is `GenerationConfig.key()` (lengthwise.llm.generation): every field that decides
the answer; transport settings (timeouts, concurrency, rate limits, retries, API key) and
`ChatRequest.metadata` are not keyed, so tuning them never throws answers away. The
lookup itself lives once, in `lengthwise.llm.cached.CachedClient`. Only outcomes that
are facts about the request are stored; an `error` (the endpoint was down) is retried
on the next run.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path
from types import TracebackType
from typing import Final

from lengthwise.errors import InputFileError
from lengthwise.llm.generation import KEY_SCHEMA, request_key
from lengthwise.llm.types import ChatResult, Usage

__all__ = ["CACHEABLE_OUTCOMES", "KEY_SCHEMA", "RequestCache", "request_key"]

CACHEABLE_OUTCOMES: Final = frozenset({"ok", "length", "blocked", "over_length"})

_SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    key TEXT PRIMARY KEY,
    prompt_version TEXT NOT NULL,
    model TEXT NOT NULL,
    outcome TEXT NOT NULL,
    result_json TEXT NOT NULL,
    created_at REAL NOT NULL
)
"""


def _result_to_json(result: ChatResult) -> str:
    return json.dumps(
        {
            "text": result.text,
            "outcome": result.outcome,
            "usage": {
                "prompt_tokens": result.usage.prompt_tokens,
                "completion_tokens": result.usage.completion_tokens,
            },
            "model": result.model,
        },
        ensure_ascii=False,
    )


def _result_from_json(raw: str) -> ChatResult:
    data = json.loads(raw)
    usage = data.get("usage") or {}
    return ChatResult(
        text=str(data["text"]),
        outcome=data["outcome"],
        usage=Usage(int(usage.get("prompt_tokens", 0)), int(usage.get("completion_tokens", 0))),
        model=str(data.get("model", "")),
        cached=True,
    )


class RequestCache:
    """A SQLite file (WAL) of finished answers, shared by threads and processes.

    One connection guarded by a lock: calls are short next to an LLM request, and
    WAL lets other processes read while one writes.
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(self.path, timeout=60.0, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute(_SCHEMA)
            self._db.commit()
        except sqlite3.DatabaseError as error:
            raise InputFileError(f"{self.path}: not a usable request cache ({error})") from error
        self.hits = 0
        self.misses = 0
        self.writes = 0

    def get(self, key: str) -> ChatResult | None:
        """The stored answer (with `cached=True`), or None; counts a hit or a miss."""
        with self._lock:
            row = self._db.execute(
                "SELECT result_json FROM results WHERE key = ?", (key,)
            ).fetchone()
            if row is None:
                self.misses += 1
                return None
            self.hits += 1
        return _result_from_json(row[0])

    def put(self, key: str, result: ChatResult, *, prompt_version: str = "") -> bool:
        """Store `result` if its outcome is a fact about the request; True if stored."""
        if result.outcome not in CACHEABLE_OUTCOMES:
            return False
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?)",
                (
                    key,
                    prompt_version,
                    result.model,
                    result.outcome,
                    _result_to_json(result),
                    time.time(),
                ),
            )
            self._db.commit()
            self.writes += 1
        return True

    def __contains__(self, key: object) -> bool:
        with self._lock:
            row = self._db.execute("SELECT 1 FROM results WHERE key = ?", (key,)).fetchone()
        return row is not None

    def __len__(self) -> int:
        with self._lock:
            (count,) = self._db.execute("SELECT COUNT(*) FROM results").fetchone()
        return int(count)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> RequestCache:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
