"""The released columns: one clean schema for every subset, documented in the card.

Build rows carry working fields (local source paths, chapter hashes) that mean
nothing to an evaluator or leak the builder's file system; a release row keeps what
a user needs to run and analyse the benchmark.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any, cast

import pyarrow as pa
from typing_extensions import TypedDict

from lengthwise.records import SAMPLE_COLUMNS, Sample, sample_arrow_schema
from lengthwise.releases.release.layout import ReleaseError
from lengthwise.tokenizers.ids import parse_tokenizer_id

# The release boundary, the one place release columns are decided: the sample record's
# columns, renamed, without the builder's working fields, plus the annotation columns.
RENAMED = {"text": "context"}
NOT_RELEASED = ("chapter_sha256", "source")  # chapter hashes and local source paths
# Chapter indexes are released as int32 (the record stores int64).
RELEASED_TYPES = {"first_chapter": pa.int32(), "last_chapter": pa.int32()}
ANNOTATION_FIELDS = (("summary", pa.string()), ("annotation", pa.string()))
RELEASED_SAMPLE_COLUMNS = tuple(c for c in SAMPLE_COLUMNS if c not in NOT_RELEASED)


class ReleaseRow(TypedDict):
    """One released row (a parquet row of data/<subset>/test.parquet); see `arrow_schema`."""

    id: str
    subset: str
    book_id: str
    book_title: str
    language: str
    first_chapter: int
    last_chapter: int
    chapter_titles: list[str]
    context: str
    tokens: int
    tokenizer: str
    token_counts: dict[str, int]
    target: int
    lower: int
    upper: int
    parent_id: str | None
    summary: str | None
    annotation: str | None  # JSON object of the annotation metadata


@dataclass(frozen=True)
class Column:
    name: str
    type: str  # as shown in the card
    description: str


COLUMNS: tuple[Column, ...] = (
    Column("id", "string", "stable sample id: `<book_id>:<first>-<last>` (0-based chapters)"),
    Column("subset", "string", "length subset (= dataset config) the sample belongs to"),
    Column("book_id", "string", "id of the source book (see the corpus table)"),
    Column("book_title", "string", "title of the source book"),
    Column("language", "string", "language code of the text (`zh`, `en`, ...)"),
    Column("first_chapter", "int32", "first chapter of the run, 0-based"),
    Column("last_chapter", "int32", "last chapter of the run, 0-based and inclusive"),
    Column("chapter_titles", "list<string>", "chapter headings in order"),
    Column("context", "string", "the text to summarise: the chapters joined as built"),
    Column("tokens", "int64", "length of `context` in tokens of the primary tokenizer"),
    Column("tokenizer", "string", "the primary tokenizer id"),
    Column("token_counts", "struct", "length of `context` per tokenizer id"),
    Column("target", "int64", "the subset's target length in tokens"),
    Column("lower", "int64", "the subset's lower length bound in tokens"),
    Column("upper", "int64", "the subset's upper length bound in tokens"),
    Column("parent_id", "string, nullable", "the longer sample this one was cut from (nested)"),
    Column("summary", "string, nullable", "the human reference summary; null when unannotated"),
    Column(
        "annotation",
        "string, nullable",
        "JSON object with the annotation metadata (pseudonymous annotator ids, flags, ...); "
        "null when unannotated",
    ),
)
COLUMN_NAMES = tuple(c.name for c in COLUMNS)


def public_tokenizer_id(tokenizer_id: str) -> str:
    """A tokenizer id without the builder's local paths: hf:/home/x/tok -> hf:tok."""
    parsed = parse_tokenizer_id(tokenizer_id)
    if parsed.kind in ("hf", "sp"):
        return f"{parsed.kind}:{PurePath(parsed.argument).name}"
    return parsed.canonical


def public_tokenizer_ids(tokenizer_ids: Sequence[str]) -> dict[str, str]:
    """Build id -> public id; two local tokenizers with one folder name would collide."""
    mapping = {t: public_tokenizer_id(t) for t in tokenizer_ids}
    public = list(mapping.values())
    clashes = sorted({p for p in public if public.count(p) > 1})
    if clashes:
        raise ReleaseError(
            f"tokenizers {clashes} would share a public id in the release; "
            "give their folders distinct names"
        )
    return mapping


def public_source(source: str) -> str:
    """A book's source without local directories: URLs and ids stay, paths keep the file name."""
    if "://" in source or source.startswith(("gutenberg:", "hf:")):
        return source
    return PurePath(source).name


def arrow_schema(public_tokenizers: Sequence[str]) -> pa.Schema:
    """The parquet schema: the sample record's (`sample_arrow_schema`) through the release
    boundary above; summary and annotation are typed even when every row is null."""
    fields = [
        pa.field(RENAMED.get(f.name, f.name), RELEASED_TYPES.get(f.name, f.type))
        for f in sample_arrow_schema(public_tokenizers)
        if f.name not in NOT_RELEASED
    ]
    return pa.schema([*fields, *ANNOTATION_FIELDS])


def release_row(
    sample: Sample,
    summary: str | None,
    annotation: Mapping[str, Any] | None,
    tokenizer_names: Mapping[str, str],
) -> ReleaseRow:
    """One released row from a build sample and its (optional) human annotation: the
    record's columns through the release boundary (RENAMED, NOT_RELEASED), public
    tokenizer ids, then the annotation columns."""
    counts = sample.token_counts
    missing = [t for t in tokenizer_names if t not in counts]
    if missing:
        raise ReleaseError(
            f"sample {sample.id}: no token count for {missing}; rerun `lengthwise build`"
        )
    row: dict[str, Any] = {
        RENAMED.get(name, name): getattr(sample, name) for name in RELEASED_SAMPLE_COLUMNS
    }
    row["chapter_titles"] = list(sample.chapter_titles)
    row["tokenizer"] = tokenizer_names.get(sample.tokenizer, sample.tokenizer)
    row["token_counts"] = {public: counts[t] for t, public in tokenizer_names.items()}
    row["summary"] = summary
    row["annotation"] = (
        json.dumps(annotation, ensure_ascii=False, sort_keys=True, default=str)
        if annotation
        else None
    )
    return cast(ReleaseRow, row)  # the keys are arrow_schema's names (tests check it)
