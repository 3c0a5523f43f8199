"""Drafts and annotations go through the work store with their files unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lengthwise.human_records import Annotation
from lengthwise.store import MissingRecords, WorkStore
from lengthwise.workdir import WorkDir

DRAFT_ROW = {
    "id": "b:0000-0001",
    "subset": "S",
    "book_id": "b",
    "chapters": [
        {
            "chapter_index": 0,
            "heading": "第一回",
            "chapter_sha256": "ab",
            "draft": "甲乙。",
            "drafter": "llm",
            "model": "m",
            "prompt_version": "p1",
            "outcome": "ok",
            "fallback_reason": None,
        },
        {
            "chapter_index": 1,
            "heading": "第二回",
            "chapter_sha256": "cd",
            "draft": "丙。",
            "drafter": "extractive",
            "model": "extractive-v1",
            "prompt_version": "",
            "outcome": "blocked",
            "fallback_reason": "llm outcome blocked",
        },
    ],
}


def test_drafts_file_reads_and_rewrites_byte_for_byte(tmp_path: Path) -> None:
    store = WorkStore(WorkDir(tmp_path))
    path = tmp_path / "drafts" / "samples.jsonl"
    path.parent.mkdir()
    original = (json.dumps(DRAFT_ROW, ensure_ascii=False) + "\n").encode("utf-8")
    path.write_bytes(original)
    drafts = store.drafts()
    assert drafts["b:0000-0001"].texts == ["甲乙。", "丙。"]
    assert drafts["b:0000-0001"].chapters[1].fallback_reason == "llm outcome blocked"
    path.unlink()
    store.write_drafts(drafts.values())
    assert path.read_bytes() == original


def test_missing_drafts_name_the_command_unless_optional(tmp_path: Path) -> None:
    store = WorkStore(WorkDir(tmp_path))
    assert store.drafts(required=False) == {}
    with pytest.raises(MissingRecords, match="lengthwise draft"):
        store.drafts()


def test_bad_drafts_row_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "drafts" / "samples.jsonl"
    path.parent.mkdir()
    path.write_text(json.dumps(DRAFT_ROW) + "\n" + json.dumps({"id": "x"}) + "\n")
    with pytest.raises(ValueError, match=r"samples.jsonl:2: not a drafts row"):
        WorkStore(WorkDir(tmp_path)).drafts()


def test_annotations_round_trip_sorted_and_errors_name_the_line(tmp_path: Path) -> None:
    store = WorkStore(WorkDir(tmp_path))
    assert store.annotations() == []

    def annotation(sample: str, number: int) -> Annotation:
        return Annotation(number, 1, sample, "S", "zh", 100, None, "a@b", "t", "t", False, "摘要")

    store.write_annotations([annotation("b", 2), annotation("a", 5), annotation("b", 1)])
    stored = store.annotations()
    assert [(r.sample_id, r.annotation_id) for r in stored] == [("a", 5), ("b", 1), ("b", 2)]
    path = tmp_path / "annotations" / "annotations.jsonl"
    assert json.loads(path.read_text().splitlines()[0])["origin"] == "human"
    path.write_text(path.read_text() + json.dumps({"sample_id": "c"}) + "\n")
    with pytest.raises(ValueError, match=r"annotations.jsonl:4: not an annotation row"):
        store.annotations()
