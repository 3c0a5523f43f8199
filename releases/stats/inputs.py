"""What `lengthwise stats` reads from a work dir: samples (with summaries once annotated).

Rows come from WORK/samples_annotated/<subset>.parquet when annotation has been
finalised, else from the build's WORK/samples/<subset>.parquet (the same rule as the
release code). A row has a reference summary when its `summary` column is a
non-empty string; before annotation there is no such column at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lengthwise.errors import InputFileError
from lengthwise.storage import read_json, sha256_file
from lengthwise.text import detect_lang


@dataclass(frozen=True)
class SubsetRows:
    name: str
    path: Path | None  # None: the subset has no samples file
    rows: list[dict[str, Any]]

    @property
    def with_summary(self) -> list[dict[str, Any]]:
        return [r for r in self.rows if summary_of(r) is not None]


def summary_of(row: dict[str, Any]) -> str | None:
    summary = row.get("summary")
    return summary if isinstance(summary, str) and summary.strip() else None


def language_of(row: dict[str, Any]) -> str:
    """The row's language when it is zh or en, else detected from its text."""
    lang = row.get("language")
    if lang in ("zh", "en"):
        return str(lang)
    return detect_lang(str(row.get("text") or ""))


def subset_file(work_root: Path, subset: str) -> Path | None:
    annotated = work_root / "samples_annotated" / f"{subset}.parquet"
    if annotated.is_file():
        return annotated
    built = work_root / "samples" / f"{subset}.parquet"
    return built if built.is_file() else None


def read_subset(work_root: Path, subset: str) -> SubsetRows:
    import pyarrow.parquet as pq

    path = subset_file(work_root, subset)
    if path is None:
        return SubsetRows(subset, None, [])
    try:
        rows: list[dict[str, Any]] = pq.read_table(path).to_pylist()
    except Exception as exc:  # pyarrow raises several types for damaged files
        raise InputFileError(f"{path}: cannot read samples: {exc}") from None
    for number, row in enumerate(rows):
        if not isinstance(row.get("id"), str) or not isinstance(row.get("text"), str):
            raise InputFileError(f"{path}: row {number}: missing string column 'id' or 'text'")
    return SubsetRows(subset, path, rows)


def read_build_report(work_root: Path) -> dict[str, Any]:
    path = work_root / "build_report.json"
    if not path.is_file():
        raise FileNotFoundError(
            f"{path} not found: run `lengthwise build SPEC.toml` before `lengthwise stats`"
        )
    try:
        report = read_json(path)
    except ValueError as exc:
        raise InputFileError(f"{path}: not valid JSON: {exc}") from None
    if not isinstance(report, dict):
        raise InputFileError(f"{path}: expected a JSON object")
    return report


def input_hashes(subsets: list[SubsetRows]) -> dict[str, str | None]:
    """sha256 of every samples file read (None for a subset without one)."""
    return {s.name: sha256_file(s.path) if s.path else None for s in subsets}
