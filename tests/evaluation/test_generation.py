"""generations.jsonl lines keep their keys and order through the Generation record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lengthwise.evaluation.store import Generation, GenerationStore

HEAD = {
    "sample_id": "b:0000-0001", "subset": "S", "prompt_id": "IE", "language": "zh",
    "prompt_tokens": 900, "original_prompt_tokens": 900, "max_new_tokens": 200,
    "action": "keep", "truncation": None, "request_key": "k", "prompt_version": "v1",
}  # fmt: skip
SKIPPED = HEAD | {
    "outcome": "skipped", "flags": [], "prediction": None, "score": None, "usage": None,
    "cached": False, "skip_reason": "too long",
}  # fmt: skip
ANSWERED = HEAD | {
    "outcome": "ok", "flags": ["echo"], "details": {"copied": 0.1}, "backend_outcome": "ok",
    "prediction": "摘要", "score": 0.25, "usage": {"prompt_tokens": 9, "completion_tokens": 3},
    "cached": True, "latency_seconds": 0.5, "error": None, "later_key": 1,
}  # fmt: skip


@pytest.mark.parametrize("row", [SKIPPED, ANSWERED], ids=["skipped", "answered"])
def test_lines_are_rewritten_with_the_same_keys_in_the_same_order(
    tmp_path: Path, row: dict[str, object]
) -> None:
    store = GenerationStore(tmp_path / "generations.jsonl")
    store.append(Generation.from_row(row, "test"))
    assert store.path.read_text(encoding="utf-8") == json.dumps(row, ensure_ascii=False) + "\n"
    (line,) = store.read()
    assert line.key == ("S", "b:0000-0001", "IE") and line.score == row["score"]


def test_a_line_without_its_key_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "generations.jsonl"
    path.write_text(json.dumps(SKIPPED) + "\n" + json.dumps({"subset": "S"}) + "\n")
    with pytest.raises(ValueError, match=r"generations.jsonl:2: not a generations line"):
        GenerationStore(path).read()
