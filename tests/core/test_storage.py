from __future__ import annotations

from pathlib import Path

import pytest

from lengthwise.storage import (
    atomic_write_json,
    atomic_write_jsonl,
    atomic_write_text,
    canonical_hash,
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


def test_canonical_hash_ignores_key_order_not_values() -> None:
    assert canonical_hash({"a": 1, "b": "x"}) == canonical_hash({"b": "x", "a": 1})
    assert canonical_hash({"a": 1}) != canonical_hash({"a": 2})


def test_read_jsonl_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    atomic_write_text(path, '{"ok": 1}\n{not json}\n')
    with pytest.raises(ValueError, match=r"bad\.jsonl:2: invalid JSON"):
        list(read_jsonl(path))
