"""Summaries written elsewhere, brought in by `lengthwise annotate import SPEC FILE`.

FILE is JSON Lines (``{"id": ..., "summary": ...}`` per line) or CSV with a header naming
``id`` and ``summary`` (other keys and columns are ignored). Every line is checked
before anything is written: a missing key or column, an empty summary, an id given
twice or an id that is no sample of the build is one error naming the file and line.

Accepted summaries are kept in WORK/annotations/imported.jsonl (a later import of the
same id wins) and enter the review like a reviewer's own text
(`select.Override`), with ``summary_source`` "import" and ``reference_origin``
"imported", so the release card counts them as imported. A reviewer's overrides file
still wins over an import.
"""

from __future__ import annotations

import csv
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from pathlib import Path

from lengthwise.annotation.review.select import SOURCE_IMPORT, Override
from lengthwise.errors import InputFileError
from lengthwise.jsonl import numbered_rows
from lengthwise.storage import atomic_write_jsonl
from lengthwise.workdir import AnnotationPaths, WorkDir

REQUIRED = ("id", "summary")
ORIGIN_IMPORTED = "imported"  # reference_origin of an imported summary


@dataclass(frozen=True)
class ImportedSummary:
    sample_id: str
    summary: str
    file: str  # the imported file's name (no local path: it is released metadata)
    line: int


def imported_path(work: WorkDir) -> Path:
    return AnnotationPaths(work).root / "imported.jsonl"


def _csv_rows(path: Path) -> Iterator[tuple[int, dict[str, object]]]:
    with path.open(encoding="utf-8-sig", newline="") as handle:
        reader = csv.DictReader(handle)
        missing = [c for c in REQUIRED if c not in (reader.fieldnames or [])]
        if missing:
            raise InputFileError(f"{path}:1: missing column(s) {', '.join(missing)} in the header")
        start = reader.line_num + 1
        for row in reader:
            yield start, {k: v for k, v in row.items() if k is not None and v is not None}
            start = reader.line_num + 1


def _rows(path: Path) -> Iterator[tuple[int, dict[str, object]]]:
    suffix = path.suffix.lower()
    if suffix == ".csv":
        yield from _csv_rows(path)
    elif suffix in (".jsonl", ".json"):
        yield from numbered_rows(path, comments=True)
    else:
        raise InputFileError(f"{path}: expected a .jsonl or .csv file of id and summary")


def read_import_file(path: Path, sample_ids: Collection[str]) -> list[ImportedSummary]:
    """The summaries of `path`, every line checked against the build's `sample_ids`."""
    if not path.is_file():
        raise InputFileError(f"{path}: no such file")
    found: dict[str, ImportedSummary] = {}
    try:
        for number, row in _rows(path):
            where = f"{path}:{number}"
            missing = [key for key in REQUIRED if key not in row]
            if missing:
                raise InputFileError(f"{where}: missing {', '.join(missing)}")
            sample_id, summary = row["id"], row["summary"]
            if not isinstance(sample_id, str) or not sample_id.strip():
                raise InputFileError(f"{where}: 'id' must be a sample id (text)")
            if not isinstance(summary, str) or not summary.strip():
                raise InputFileError(f"{where}: 'summary' must be non-empty text")
            if sample_id not in sample_ids:
                raise InputFileError(f"{where}: no sample {sample_id!r} in this build")
            if sample_id in found:
                raise InputFileError(
                    f"{where}: sample {sample_id!r} given twice (also line {found[sample_id].line})"
                )
            found[sample_id] = ImportedSummary(sample_id, summary.strip(), path.name, number)
    except UnicodeDecodeError as exc:
        raise InputFileError(f"{path}: not UTF-8 text ({exc.reason})") from None
    if not found:
        raise InputFileError(f"{path}: no summaries in the file")
    return list(found.values())


def stored_imports(work: WorkDir) -> list[ImportedSummary]:
    """What earlier imports kept (WORK/annotations/imported.jsonl)."""
    path = imported_path(work)
    if not path.is_file():
        return []
    return [
        ImportedSummary(str(r["sample_id"]), str(r["summary"]), str(r["file"]), int(r["line"]))
        for _, r in numbered_rows(path)
    ]


def merged_imports(work: WorkDir, new: list[ImportedSummary]) -> list[ImportedSummary]:
    """Earlier imports with `new` ones replacing those of the same sample."""
    merged = {s.sample_id: s for s in stored_imports(work)}
    merged.update({s.sample_id: s for s in new})
    return sorted(merged.values(), key=lambda s: s.sample_id)


def store_imports(work: WorkDir, summaries: list[ImportedSummary]) -> None:
    atomic_write_jsonl(
        imported_path(work),
        [
            {"sample_id": s.sample_id, "summary": s.summary, "file": s.file, "line": s.line}
            for s in summaries
        ],
    )


def as_overrides(summaries: list[ImportedSummary], where: Path) -> dict[str, Override]:
    """Imported summaries as review decisions (see `select._apply_override`)."""
    return {
        s.sample_id: Override(
            sample_id=s.sample_id,
            summary=s.summary,
            note=f"imported from {s.file}:{s.line}",
            where=f"{where}: sample {s.sample_id}",
            source=SOURCE_IMPORT,
        )
        for s in summaries
    }
