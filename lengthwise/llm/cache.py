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
import logging
import sqlite3
import threading
import time
from pathlib import Path
from types import TracebackType
from typing import Final

from lengthwise.errors import InputFileError
from lengthwise.llm.generation import KEY_SCHEMA, request_key
from lengthwise.llm.types import ChatResult, Usage
from lengthwise.storage import canonical_hash

__all__ = ["CACHEABLE_OUTCOMES", "KEY_SCHEMA", "RequestCache", "request_key"]

log = logging.getLogger(__name__)

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


def _row_check(key: str, data: dict[str, object]) -> str:
    """The sha256 a row is stored with: its request key and its answer, canonical."""
    answer = {k: v for k, v in data.items() if k != "check"}
    return canonical_hash({"key": key, "answer": answer})


def _result_to_json(key: str, result: ChatResult) -> str:
    data: dict[str, object] = {
        "text": result.text,
        "outcome": result.outcome,
        "usage": {
            "prompt_tokens": result.usage.prompt_tokens,
            "completion_tokens": result.usage.completion_tokens,
        },
        "model": result.model,
    }
    data["check"] = _row_check(key, data)
    return json.dumps(data, ensure_ascii=False)


def _result_from_json(key: str, raw: str) -> ChatResult | None:
    """The stored answer, or None when the row no longer matches the check it was stored
    with (rows written before checks existed have none and are taken as they are)."""
    data = json.loads(raw)
    if "check" in data and data["check"] != _row_check(key, data):
        return None
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
        self.discarded = 0  # rows that failed their check

    def get(self, key: str) -> ChatResult | None:
        """The stored answer (with `cached=True`), or None; counts a hit or a miss."""
        with self._lock:
            row = self._db.execute(
                "SELECT result_json FROM results WHERE key = ?", (key,)
            ).fetchone()
            result = None if row is None else _result_from_json(key, row[0])
            if row is not None and result is None:
                # Edited since it was stored: discarded, the request is made again.
                log.warning("%s: an answer no longer matches its check; asked again", self.path)
                self._db.execute("DELETE FROM results WHERE key = ?", (key,))
                self._db.commit()
                self.discarded += 1
            if result is None:
                self.misses += 1
                return None
            self.hits += 1
        return result

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
                    _result_to_json(key, result),
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
