"""Hugging Face datasets -> one `SourceDocument` per row.

Library: `datasets.load_dataset`, imported only when such a source is read (it is
large to import). `dataset` is a Hub id, or a local file (json, jsonl,
csv, parquet) or folder, resolved against the spec's folder. Hub access follows the usual
Hugging Face environment (HF_HOME, HF_TOKEN, HF_HUB_OFFLINE).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import Any

from lengthwise.builders.sources.errors import SourceFailure
from lengthwise.records import SourceDocument, slugify
from lengthwise.spec import HFDatasetSource
from lengthwise.storage import sha256_text

_BUILDER_BY_EXTENSION = {
    ".json": "json",
    ".jsonl": "json",
    ".csv": "csv",
    ".parquet": "parquet",
    ".arrow": "arrow",
}
_BATCH_ROWS = 16  # rows are whole books; small batches keep memory flat


def read_hf_dataset(
    source: HFDatasetSource, base_dir: Path
) -> Iterator[SourceDocument | SourceFailure]:
    """Yield a document per row of `source.column`; bad cells and load errors become failures."""
    label = f"hf:{source.dataset}[{source.split}]"
    try:
        dataset = load_hf_dataset(source, base_dir)
    except HFLoadError as error:
        yield SourceFailure(label, str(error), "hf-load-failed")
        return
    columns = list(dataset.column_names)
    for wanted in (source.column, source.title_column):
        if wanted is not None and wanted not in columns:
            yield SourceFailure(
                label,
                f"column {wanted!r} not found; available columns: {', '.join(columns)}",
                "hf-missing-column",
            )
            return
    wanted_columns = [source.column] + ([source.title_column] if source.title_column else [])
    language = None if source.language == "auto" else source.language
    name = PurePosixPath(source.dataset.rstrip("/")).stem or source.dataset
    index = 0
    for batch in dataset.select_columns(wanted_columns).iter(batch_size=_BATCH_ROWS):
        titles = batch[source.title_column] if source.title_column else None
        for offset, value in enumerate(batch[source.column]):
            title = titles[offset] if titles is not None else None
            yield _row_document(source, f"{label}#{index}", name, index, value, title, language)
            index += 1


class HFLoadError(Exception):
    pass


def load_hf_dataset(source: HFDatasetSource, base_dir: Path) -> Any:
    """Load one split of a Hub dataset or a local data file/folder; HFLoadError says why not."""
    import datasets  # lazy: heavy import, optional dependency

    candidate = Path(source.dataset).expanduser()
    local = candidate if candidate.is_absolute() else base_dir / candidate
    looks_local = source.dataset.startswith((".", "/", "~")) or candidate.suffix in (
        _BUILDER_BY_EXTENSION
    )
    try:
        if local.is_file():
            builder = _BUILDER_BY_EXTENSION.get(local.suffix.lower())
            if builder is None:
                supported = " ".join(_BUILDER_BY_EXTENSION)
                raise HFLoadError(f"{local}: unsupported data file type (supported: {supported})")
            return datasets.load_dataset(
                builder, data_files={source.split: str(local)}, split=source.split
            )
        if local.is_dir():
            return datasets.load_dataset(str(local), source.config, split=source.split)
        if looks_local:
            raise HFLoadError(f"{local}: no such file or folder")
        return datasets.load_dataset(
            source.dataset, source.config, split=source.split, revision=source.revision
        )
    except HFLoadError:
        raise
    except Exception as exc:  # datasets raises many types (FileNotFound, ValueError, HTTP ...)
        raise HFLoadError(f"cannot load dataset: {type(exc).__name__}: {exc}") from exc


def _row_document(
    source: HFDatasetSource,
    where: str,
    name: str,
    index: int,
    value: object,
    title: object,
    language: str | None,
) -> SourceDocument | SourceFailure:
    if value is None or (isinstance(value, str) and not value.strip()):
        return SourceFailure(where, f"empty cell in column {source.column!r}", "empty-text")
    if not isinstance(value, str):
        kind = type(value).__name__
        return SourceFailure(where, f"column {source.column!r} holds {kind}, not text", "not-text")
    has_title = isinstance(title, str) and bool(title.strip())
    shown_title = str(title).strip() if has_title else f"{name} #{index}"
    text = value.replace("\r\n", "\n").replace("\r", "\n")
    return SourceDocument(
        id=slugify(shown_title) if has_title else f"{slugify(name, 'row')}-{index}",
        title=shown_title,
        title_source="hf-column" if has_title else "row-index",
        source=where,
        text=text,
        encoding="utf-8",
        raw_sha256=sha256_text(value),
        language=language,
    )
