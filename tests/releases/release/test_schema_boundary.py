"""The release columns come from the sample record through one boundary (schema.py)."""

from __future__ import annotations

import pyarrow as pa

from lengthwise.records import Sample, sample_arrow_schema
from lengthwise.releases.release.schema import (
    COLUMN_NAMES,
    NOT_RELEASED,
    RENAMED,
    ReleaseRow,
    arrow_schema,
    release_row,
)

TOKENIZERS = ["qwen2.5", "tiktoken:o200k_base"]


def _sample() -> Sample:
    return Sample("b:0000-0001", "S", "b", "Book", "en", 0, 1, ["I", "II"], ["h1", "h2"],
                  "text", 10, "qwen2.5", {"qwen2.5": 10, "tiktoken:o200k_base": 9}, 12, 8, 16,
                  None, "/home/me/b.txt", {"summary": "s"})  # fmt: skip


def test_released_file_format_is_unchanged() -> None:
    """The parquet schema of every release so far (a format users' code depends on)."""
    strings = pa.list_(pa.string())
    expected = pa.schema(
        [("id", pa.string()), ("subset", pa.string()), ("book_id", pa.string()),
         ("book_title", pa.string()), ("language", pa.string()), ("first_chapter", pa.int32()),
         ("last_chapter", pa.int32()), ("chapter_titles", strings), ("context", pa.string()),
         ("tokens", pa.int64()), ("tokenizer", pa.string()),
         ("token_counts", pa.struct([(t, pa.int64()) for t in TOKENIZERS])),
         ("target", pa.int64()), ("lower", pa.int64()), ("upper", pa.int64()),
         ("parent_id", pa.string()), ("summary", pa.string()), ("annotation", pa.string())]
    )  # fmt: skip
    assert arrow_schema(TOKENIZERS).equals(expected, check_metadata=True)


def test_release_columns_are_the_record_columns_through_the_boundary() -> None:
    record = sample_arrow_schema(TOKENIZERS)
    released = arrow_schema(TOKENIZERS)
    kept = [RENAMED.get(n, n) for n in record.names if n not in NOT_RELEASED]
    assert released.names == [*kept, "summary", "annotation"]
    assert released.names == list(COLUMN_NAMES) == list(ReleaseRow.__annotations__)
    assert "text" not in released.names and "source" not in released.names


def test_a_released_row_has_exactly_the_schema_columns_with_public_tokenizers() -> None:
    names = {"qwen2.5": "qwen2.5", "tiktoken:o200k_base": "tiktoken:o200k_base"}
    row = release_row(_sample(), "s", {"annotators": ["a1"]}, names)
    assert list(row) == arrow_schema(TOKENIZERS).names
    assert row["context"] == "text" and row["annotation"] == '{"annotators": ["a1"]}'
    table = pa.Table.from_pylist([dict(row)], schema=arrow_schema(TOKENIZERS))
    assert table.num_rows == 1
