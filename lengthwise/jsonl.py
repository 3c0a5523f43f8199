"""JSON Lines: the one reader and writer of every ``*.jsonl`` file in the project.

The rule: **a line is what ends with ``\\n``, nothing else.** ``str.splitlines()`` also
splits on ``\\r``, ``\\x0b``, ``\\x0c``, ``\\x1c``-``\\x1e``, ``\\x85``, U+2028 and U+2029;
``json.dumps(..., ensure_ascii=False)`` escapes the ASCII ones but keeps the last three
raw, so a model answer holding U+2028 became two "lines", neither valid JSON.

- Writing (`dumps_line`, `write_jsonl`, `JsonlLog.append`): one JSON value per line, with
  U+0085, U+2028 and U+2029 escaped too, so that even a reader that splits on them (a
  user's ``splitlines()``, a JavaScript consumer) sees one record per line. The parsed
  values are the same either way.
- Reading (`read_jsonl`, `numbered_rows`, `JsonlLog.read`): the bytes are split on
  ``b"\\n"`` only and each line is decoded on its own, so files written raw (by an older
  version or another tool) read correctly too.
- Append-only logs (`JsonlLog`: generations, draft records, usage journals): each
  record is one ``write`` on an ``O_APPEND`` descriptor, so a kill can only tear the
  last line, which then lacks its ``\\n``. Reading ignores that torn tail (and changes
  nothing: a report may read while a run appends); the next append cuts it off the file
  first, so every record starts on a line of its own. A complete line that does not
  parse is reported (file and line) and skipped, never merged with the next.

No other module splits, parses or assembles JSON lines by itself
(tests/core/test_jsonl_single_home.py checks the sources).
"""

from __future__ import annotations

import json
import logging
import os
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Final

from lengthwise.errors import InputFileError
from lengthwise.storage import atomic_write_bytes

log = logging.getLogger(__name__)

# Line breaks to str.splitlines() (and to JavaScript, for the two U+202x) that
# json.dumps(ensure_ascii=False) leaves raw; every other one it escapes already.
_RAW_BREAKS: Final = (("\u0085", "\\u0085"), ("\u2028", "\\u2028"), ("\u2029", "\\u2029"))


def dumps_line(value: object, *, sort_keys: bool = False) -> str:
    """`value` as one JSON Lines line, without its ``\\n`` (no raw line break inside)."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=sort_keys)
    for raw, escaped in _RAW_BREAKS:
        if raw in text:
            text = text.replace(raw, escaped)
    return text


def encode_lines(rows: Iterable[object]) -> bytes:
    """Rows as the bytes of a JSON Lines file (each line ends with ``\\n``)."""
    return "".join(dumps_line(row) + "\n" for row in rows).encode("utf-8")


def write_jsonl(path: Path, rows: Iterable[object]) -> None:
    """Write rows as a JSON Lines file atomically (temp file, then rename)."""
    atomic_write_bytes(path, encode_lines(rows))


def _parse(raw: bytes, where: str) -> Any:
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise InputFileError(f"{where}: not UTF-8 ({exc.reason} at byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise InputFileError(f"{where}: invalid JSON line: {exc.msg}") from None


def _is_blank(raw: bytes) -> bool:
    return not raw.strip(b" \t\r\n")


def numbered_values(path: Path, *, comments: bool = False) -> Iterator[tuple[int, Any]]:
    """(line number, parsed value) for each non-blank line; a bad line is an error
    naming the file and line. The last line may lack its ``\\n``. With `comments`, a
    line starting with ``#`` is skipped (files people write)."""
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, start=1):  # binary files split on b"\n" only
            if _is_blank(raw) or (comments and raw.lstrip().startswith(b"#")):
                continue
            yield number, _parse(raw, f"{path}:{number}")


def parse_jsonl(text: str, where: str) -> list[Any]:
    """The values of JSON Lines already in memory (split on ``\\n`` only, blanks skipped)."""
    return [
        _parse(line.encode("utf-8"), f"{where}:{number}")
        for number, line in enumerate(text.split("\n"), start=1)
        if line.strip(" \t\r")
    ]


def numbered_rows(path: Path, *, comments: bool = False) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, JSON object) for each non-blank line; anything else is an error."""
    for number, value in numbered_values(path, comments=comments):
        if not isinstance(value, dict):
            raise InputFileError(f"{path}:{number}: expected a JSON object on each line")
        yield number, value


def read_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    """The JSON objects of a JSON Lines file, in order (see `numbered_rows`)."""
    for _, row in numbered_rows(path):
        yield row


class JsonlLog:
    """An append-only JSON Lines file, safe to append to from several threads.

    `fsync` makes each append durable before it returns (what a resumed run relies on);
    without it the data is still written whole, only later to disk.
    """

    def __init__(self, path: Path, *, fsync: bool = True) -> None:
        self.path = Path(path)
        self.fsync = fsync
        self._lock = threading.Lock()

    def read(self) -> list[tuple[int, Any]]:
        """(line number, value) for every complete line that parses; a torn last line
        (no ``\\n``) is ignored, an unparseable complete line is logged and skipped."""
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return []
        lines = data.split(b"\n")
        if lines[-1]:
            log.info("%s: ignoring an incomplete last line (crash or write under way)", self.path)
        values: list[tuple[int, Any]] = []
        for number, raw in enumerate(lines[:-1], start=1):
            if _is_blank(raw):
                continue
            try:
                values.append((number, _parse(raw, f"{self.path}:{number}")))
            except InputFileError as exc:
                log.warning("%s (line skipped)", exc)
        return values

    def append(self, *rows: object) -> None:
        """Append rows, all in one write; a torn last line left by a crash is cut first."""
        data = encode_lines(rows)
        with self._lock:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                size = os.fstat(fd).st_size
                if size and os.pread(fd, 1, size - 1) != b"\n":
                    self._cut_torn_tail(fd, size)
                written = 0
                while written < len(data):  # one write in practice; a short one continues
                    written += os.write(fd, data[written:])
                if self.fsync:
                    os.fsync(fd)
            finally:
                os.close(fd)

    def reset(self) -> None:
        """Remove the file (a new run starts empty)."""
        self.path.unlink(missing_ok=True)

    def _cut_torn_tail(self, fd: int, size: int) -> None:
        """Cut the file back to its last ``\\n`` (the bytes after it are a torn line)."""
        data = os.pread(fd, size, 0)
        kept = data.rfind(b"\n") + 1
        log.warning(
            "%s: dropping an incomplete last line (%d bytes) left by a crash",
            self.path,
            size - kept,
        )
        os.ftruncate(fd, kept)
