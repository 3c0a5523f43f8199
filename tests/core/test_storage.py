from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from lengthwise import storage
from lengthwise.stage_state import remove_leftovers
from lengthwise.storage import (
    atomic_write_json,
    atomic_write_jsonl,
    atomic_write_text,
    canonical_hash,
    read_json,
    read_jsonl,
)


def test_atomic_write_replaces_whole_file_and_leaves_no_temp(tmp_path: Path) -> None:
    target = tmp_path / "out" / "report.json"
    atomic_write_json(target, {"a": 1})
    atomic_write_json(target, {"a": 2, "b": [1, 2]})
    assert target.read_text(encoding="utf-8").startswith("{")
    assert [p.name for p in target.parent.iterdir()] == ["report.json"]


def test_failed_write_keeps_previous_content(tmp_path: Path) -> None:
    target = tmp_path / "rows.jsonl"
    atomic_write_jsonl(target, [{"id": 1}])

    def broken_rows():  # type: ignore[no-untyped-def]
        yield {"id": 2}
        raise RuntimeError("crash mid-write")

    with pytest.raises(RuntimeError):
        atomic_write_jsonl(target, broken_rows())
    assert list(read_jsonl(target)) == [{"id": 1}]
    assert [p.name for p in tmp_path.iterdir()] == ["rows.jsonl"]


def test_failure_between_write_and_rename_keeps_previous_content(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The new bytes are fully written and synced, then the rename fails: an atomic write
    # leaves the old file whole; a plain write would already have overwritten it.
    target = tmp_path / "report.json"
    atomic_write_json(target, {"version": 1})

    def rename_fails(src: str, dst: str) -> None:
        raise OSError("disk gone between write and rename")

    monkeypatch.setattr(storage.os, "replace", rename_fails)
    with pytest.raises(OSError, match="between write and rename"):
        atomic_write_json(target, {"version": 2, "rows": list(range(1000))})
    assert read_json(target) == {"version": 1}
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]


KILLED_WRITER = """
import os, signal, sys
from pathlib import Path
from lengthwise import storage

def killed(src, dst):  # the new content is on disk under its temporary name: die now
    os.kill(os.getpid(), signal.SIGKILL)

storage.os.replace = killed
storage.atomic_write_text(Path(sys.argv[1]), "new content " * 100_000)
"""


def test_writer_killed_midway_leaves_previous_content_and_only_a_hidden_temp(
    tmp_path: Path,
) -> None:
    target = tmp_path / "samples.jsonl"
    atomic_write_text(target, "old content\n")
    done = subprocess.run(
        [sys.executable, "-c", KILLED_WRITER, str(target)], capture_output=True, check=False
    )
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert target.read_text(encoding="utf-8") == "old content\n"
    # What the killed writer left is a hidden temporary file the next run removes.
    leftovers = [p for p in tmp_path.iterdir() if p != target]
    assert leftovers and all(p.name.startswith(".") for p in leftovers)
    assert sorted(remove_leftovers(tmp_path)) == sorted(leftovers)
    assert [p.name for p in tmp_path.iterdir()] == ["samples.jsonl"]


def test_canonical_hash_ignores_key_order_not_values() -> None:
    assert canonical_hash({"a": 1, "b": "x"}) == canonical_hash({"b": "x", "a": 1})
    assert canonical_hash({"a": 1}) != canonical_hash({"a": 2})


def test_read_jsonl_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    atomic_write_text(path, '{"ok": 1}\n{not json}\n')
    with pytest.raises(ValueError, match=r"bad\.jsonl:2: invalid JSON"):
        list(read_jsonl(path))


def test_parquet_compression_is_a_choice_and_the_rows_stay_the_same(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    from lengthwise.storage import atomic_write_parquet_many

    rows = [{"id": str(i), "text": "字" * i} for i in range(50)]
    files = {tmp_path / "a.parquet": rows, tmp_path / "b.parquet": rows[:3]}
    atomic_write_parquet_many(files, compression="none")
    atomic_write_parquet_many({tmp_path / "c.parquet": rows})
    for path, codec in (("a", "UNCOMPRESSED"), ("c", "SNAPPY")):
        meta = pq.ParquetFile(tmp_path / f"{path}.parquet").metadata.row_group(0)
        assert {meta.column(i).compression for i in range(meta.num_columns)} == {codec}
        assert pq.read_table(tmp_path / f"{path}.parquet").to_pylist() == rows
    assert pq.read_table(tmp_path / "b.parquet").to_pylist() == rows[:3]
