"""Hugging Face dataset sources, from local files written in tmp_path (no Hub access)."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from lengthwise.builders.sources.errors import SourceFailure
from lengthwise.builders.sources.hf import read_hf_dataset
from lengthwise.records import SourceDocument
from lengthwise.spec import HFDatasetSource

ROWS = [
    {"content": "第一本书的正文。\r\n第二行。", "name": "石桥", "n": 1},
    {"content": "", "name": "空书", "n": 2},
    {"content": None, "name": "缺失", "n": 3},
    {"content": "Second book text.", "name": None, "n": 4},
]


def _source(dataset: str, **settings: object) -> HFDatasetSource:
    return HFDatasetSource.model_validate({"kind": "hf", "dataset": dataset, **settings})


def test_parquet_rows_become_documents_and_bad_cells_failures(tmp_path: Path) -> None:
    pq.write_table(pa.Table.from_pylist(ROWS), tmp_path / "books.parquet")
    source = _source("books.parquet", column="content", title_column="name", language="zh")

    results = list(read_hf_dataset(source, tmp_path))  # relative path: resolved from base_dir

    assert len(results) == 4
    first, empty, missing, untitled = results
    assert isinstance(first, SourceDocument)
    assert first.text == "第一本书的正文。\n第二行。"
    assert (first.id, first.title, first.language) == ("石桥", "石桥", "zh")
    assert first.source == "hf:books.parquet[train]#0"
    for failure in (empty, missing):
        assert isinstance(failure, SourceFailure)
        assert failure.key == "empty-text"
        assert "'content'" in failure.reason
    assert missing.source == "hf:books.parquet[train]#2"
    assert isinstance(untitled, SourceDocument)
    assert untitled.id == "books-3"  # no title: dataset name and row number


def test_jsonl_with_non_text_cells(tmp_path: Path) -> None:
    lines = [{"text": "一段文字。"}, {"text": 42}]
    (tmp_path / "data.jsonl").write_text(
        "\n".join(json.dumps(line, ensure_ascii=False) for line in lines), encoding="utf-8"
    )
    good, bad = read_hf_dataset(_source(str(tmp_path / "data.jsonl")), Path("/elsewhere"))
    assert isinstance(good, SourceDocument)
    assert good.text == "一段文字。"
    assert good.language is None
    assert isinstance(bad, SourceFailure)
    assert bad.key == "not-text"
    assert "holds int" in bad.reason


def test_missing_column_names_the_available_ones(tmp_path: Path) -> None:
    pq.write_table(pa.Table.from_pylist(ROWS), tmp_path / "books.parquet")
    (failure,) = read_hf_dataset(_source("books.parquet", column="body"), tmp_path)
    assert isinstance(failure, SourceFailure)
    assert failure.key == "hf-missing-column"
    assert failure.reason == "column 'body' not found; available columns: content, name, n"


def test_folder_of_data_files(tmp_path: Path) -> None:
    folder = tmp_path / "corpus"
    folder.mkdir()
    pq.write_table(pa.Table.from_pylist([{"text": "甲"}, {"text": "乙"}]), folder / "a.parquet")
    results = list(read_hf_dataset(_source("corpus"), tmp_path))
    assert [item.text for item in results if isinstance(item, SourceDocument)] == ["甲", "乙"]


def test_missing_local_path_is_a_failure(tmp_path: Path) -> None:
    (failure,) = read_hf_dataset(_source("./nowhere.jsonl"), tmp_path)
    assert isinstance(failure, SourceFailure)
    assert failure.key == "hf-load-failed"
    assert "no such file or folder" in failure.reason


def test_unreachable_hub_dataset_is_a_failure(tmp_path: Path) -> None:
    # HF_HUB_OFFLINE=1 (tests/conftest.py): the Hub cannot be asked, so loading must fail cleanly.
    (failure,) = read_hf_dataset(_source("lengthwise-tests/no-such-dataset"), tmp_path)
    assert isinstance(failure, SourceFailure)
    assert failure.key == "hf-load-failed"
    assert failure.source == "hf:lengthwise-tests/no-such-dataset[train]"
    assert failure.reason.startswith("cannot load dataset:")
