"""What `lengthwise stats` reads from a work dir: samples (with summaries once annotated).

Samples come from the work store (`lengthwise.store`): WORK/samples_annotated/<subset>.parquet
when annotation has been finalised, else the build's WORK/samples/<subset>.parquet. A
sample has a reference summary when its `summary` column is a non-empty string; before
annotation there is no such column at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lengthwise.errors import InputFileError
from lengthwise.records import Sample
from lengthwise.storage import read_json, sha256_file
from lengthwise.store import WorkStore
from lengthwise.text import detect_lang
from lengthwise.workdir import WorkDir


@dataclass(frozen=True)
class SubsetRows:
    name: str
    path: Path | None  # None: the subset has no samples file
    rows: list[Sample]

    @property
    def with_summary(self) -> list[Sample]:
        return [r for r in self.rows if r.summary is not None]


def summary_of(sample: Sample) -> str | None:
    return sample.summary


def language_of(sample: Sample) -> str:
    """The sample's language when it is zh or en, else detected from its text."""
    if sample.language in ("zh", "en"):
        return sample.language
    return detect_lang(sample.text)


def subset_file(work_root: Path, subset: str) -> Path | None:
    return WorkStore(WorkDir(work_root)).samples_file(subset)


def read_subset(work_root: Path, subset: str) -> SubsetRows:
    store = WorkStore(WorkDir(work_root))
    path = store.samples_file(subset)
    if path is None:
        return SubsetRows(subset, None, [])
    return SubsetRows(subset, path, store.samples(subset))


def read_build_report(work_root: Path) -> dict[str, Any]:
    path = WorkDir(work_root).build_report
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
