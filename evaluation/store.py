"""generations.jsonl: one line per (sample, prompt), appended as each answer finishes.

Each line is written whole and flushed to disk before the next, so a run killed at any
moment leaves every finished answer on disk; at most the last line can be partial, and
it is dropped (and rewritten) when the run resumes. A line carries the request key,
so a resumed run reuses it only for the very same request.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from collections.abc import Mapping
from pathlib import Path

from lengthwise.errors import InputFileError, UserError
from lengthwise.evaluation.generation import Generation, LineKey
from lengthwise.storage import atomic_write_text, read_json

log = logging.getLogger(__name__)

GENERATIONS = "generations.jsonl"
USAGE_JOURNAL = "state/eval-usage.jsonl"  # every invocation's usage (lengthwise.llm.usage_journal)
__all__ = ["GENERATIONS", "USAGE_JOURNAL", "Generation", "GenerationStore", "LineKey"]


class GenerationStore:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()

    def read(self) -> list[Generation]:
        """Every complete line; a partial last line (a crash mid-write) is dropped from the file."""
        if not self.path.is_file():
            return []
        raw = self.path.read_text(encoding="utf-8")
        lines: list[Generation] = []
        kept: list[str] = []
        broken = 0
        for number, text in enumerate(raw.splitlines(), start=1):
            if not text.strip():
                continue
            try:
                value = json.loads(text)
            except json.JSONDecodeError:
                broken += 1
                log.warning("%s:%d: unreadable line dropped (interrupted write)", self.path, number)
                continue
            if not isinstance(value, dict):
                raise InputFileError(f"{self.path}:{number}: not a generations line")
            lines.append(Generation.from_row(value, f"{self.path}:{number}"))
            kept.append(text)
        if broken or (raw and not raw.endswith("\n")):
            atomic_write_text(self.path, "".join(line + "\n" for line in kept))
        return lines

    def latest(self) -> dict[LineKey, Generation]:
        """The last line written for each (subset, sample, prompt)."""
        return {line.key: line for line in self.read()}

    def append(self, line: Generation) -> None:
        text = json.dumps(line.to_row(), ensure_ascii=False) + "\n"
        with self._lock:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a", encoding="utf-8") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())

    def reset(self) -> None:
        self.path.unlink(missing_ok=True)


def check_run_folder(run_file: Path, fingerprint: Mapping[str, object], overwrite: bool) -> None:
    """Refuse a run folder holding a run with other settings (unless `overwrite`)."""
    out = run_file.parent
    if run_file.is_file():
        previous = read_json(run_file).get("fingerprint")
        if previous != fingerprint:
            if not overwrite:
                changed = sorted(
                    k for k in fingerprint if (previous or {}).get(k) != fingerprint[k]
                )
                raise UserError(
                    f"{out} holds a run with different settings ({', '.join(changed)}); "
                    "use another --out, or --overwrite to discard it"
                )
            GenerationStore(out / GENERATIONS).reset()
            (out / USAGE_JOURNAL).unlink(missing_ok=True)  # a new run: its usage starts at 0
