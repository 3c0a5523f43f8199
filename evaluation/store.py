"""generations.jsonl: one line per (sample, prompt), appended as each answer finishes.

Each line is written whole and flushed to disk before the next, so a run killed at any
moment leaves every finished answer on disk; at most the last line can be partial, and
it is cut off the file when the run resumes (lengthwise.jsonl). A line carries the request key,
so a resumed run reuses it only for the very same request.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from lengthwise.errors import InputFileError, UserError
from lengthwise.evaluation.generation import Generation, LineKey
from lengthwise.jsonl import JsonlLog
from lengthwise.storage import read_json

GENERATIONS = "generations.jsonl"
USAGE_JOURNAL = "state/eval-usage.jsonl"  # every invocation's usage (lengthwise.llm.usage_journal)
__all__ = ["GENERATIONS", "USAGE_JOURNAL", "Generation", "GenerationStore", "LineKey"]


class GenerationStore:
    """generations.jsonl through `lengthwise.jsonl.JsonlLog` (each append fsync'd)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._log = JsonlLog(path, fsync=True)

    def read(self) -> list[Generation]:
        """Every complete line; a partial last line (a crash mid-write) is dropped from the file."""
        lines: list[Generation] = []
        for number, value in self._log.read():
            if not isinstance(value, dict):
                raise InputFileError(f"{self.path}:{number}: not a generations line")
            lines.append(Generation.from_row(value, f"{self.path}:{number}"))
        return lines

    def latest(self) -> dict[LineKey, Generation]:
        """The last line written for each (subset, sample, prompt)."""
        return {line.key: line for line in self.read()}

    def append(self, line: Generation) -> None:
        self._log.append(line.to_row())

    def reset(self) -> None:
        self._log.reset()


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
