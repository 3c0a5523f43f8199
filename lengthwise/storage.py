"""Atomic file writes and content hashes shared by every stage (JSON Lines: lengthwise.jsonl).

Every stage writes through these helpers so that a crash never leaves a half
file that looks finished: data goes to a temporary file in the same folder and
is renamed over the target only once complete.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from lengthwise.written_files import note_written


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def sha256_file(path: Path, chunk_size: int = 1 << 20) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(chunk_size):
            digest.update(block)
    return digest.hexdigest()


def canonical_json(value: Any) -> str:
    """JSON with sorted keys and no whitespace: equal values give equal strings."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def canonical_hash(value: Any) -> str:
    return sha256_text(canonical_json(value))


def atomic_write_bytes(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, path)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise
    note_written(path)  # into the running stage's completion record


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_json(path: Path, value: Any) -> None:
    atomic_write_text(path, json.dumps(value, ensure_ascii=False, indent=2, sort_keys=False) + "\n")


def atomic_write_jsonl(path: Path, rows: Iterable[Mapping[str, object]]) -> None:
    """`lengthwise.jsonl.write_jsonl` (JSON Lines live there; this name stays for callers)."""
    from lengthwise.jsonl import write_jsonl

    write_jsonl(path, rows)


def read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def read_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    """`lengthwise.jsonl.read_jsonl` (JSON Lines live there; this name stays for callers)."""
    from lengthwise.jsonl import read_jsonl as read

    return read(path)


def atomic_write_parquet_many(
    files: Mapping[Path, Sequence[Mapping[str, object]]], compression: str = "snappy"
) -> None:
    """Write several parquet files at once: pyarrow encodes and compresses without the GIL,
    so threads overlap them (the files are byte for byte what one-by-one writes give)."""
    if len(files) <= 1:
        for path, rows in files.items():
            atomic_write_parquet(path, rows, compression=compression)
        return
    with ThreadPoolExecutor(max_workers=min(len(files), os.cpu_count() or 1, 4)) as pool:
        calls = [
            pool.submit(atomic_write_parquet, p, r, None, compression) for p, r in files.items()
        ]
        for done in calls:
            done.result()


def atomic_write_parquet(
    path: Path,
    rows: Sequence[Mapping[str, object]],
    schema: Any = None,
    compression: str = "snappy",
) -> None:
    """Write rows as a parquet file atomically (temp file in the same folder, then rename).

    `compression` is pyarrow's codec name for every column ("snappy", pyarrow's default,
    or "none", "zstd", ...)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    path.parent.mkdir(parents=True, exist_ok=True)
    table = pa.Table.from_pylist(rows, schema=schema)
    fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    try:
        pq.write_table(table, tmp_name, compression=compression)
        os.replace(tmp_name, path)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise
    note_written(path)
