"""What `lengthwise stats` reads from a work dir: samples (with summaries once annotated).

Samples come from the work store (`lengthwise.store`): WORK/samples_annotated/<subset>.parquet
when annotation has been finalised, else the build's WORK/samples/<subset>.parquet. A
sample has a reference summary when its `summary` column is a non-empty string; before
annotation there is no such column at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from lengthwise.builders import build_record
from lengthwise.builders.build_record import BuildReportFile
from lengthwise.records import Sample
from lengthwise.storage import sha256_file
from lengthwise.store import MissingRecords, WorkStore
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


def read_build_report(work_root: Path) -> BuildReportFile:
    work = WorkDir(work_root)
    if not work.build_report.is_file():
        raise MissingRecords(
            f"{work.build_report} not found: run `lengthwise build SPEC.toml` before "
            "`lengthwise stats`"
        )
    return build_record.read_build_report(work)


def input_hashes(subsets: list[SubsetRows]) -> dict[str, str | None]:
    """sha256 of every samples file read (None for a subset without one)."""
    return {s.name: sha256_file(s.path) if s.path else None for s in subsets}
