"""Where each stage reads and writes inside a benchmark's work directory."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from lengthwise.spec import Spec


def default_work_dir(spec: Spec) -> Path:
    return Path("lw-work") / spec.name


@dataclass(frozen=True)
class WorkDir:
    root: Path

    @property
    def cache(self) -> Path:
        return self.root / "cache"

    @property
    def http_cache(self) -> Path:
        return self.cache / "http"

    @property
    def books(self) -> Path:
        return self.root / "corpus" / "books.jsonl"

    @property
    def books_report(self) -> Path:
        return self.root / "corpus" / "books_report.json"

    @property
    def repeated_chapters(self) -> Path:
        return self.root / "corpus" / "repeated_chapters.json"

    @property
    def samples(self) -> Path:
        return self.root / "samples"

    def subset_samples(self, subset: str) -> Path:
        return self.samples / f"{subset}.parquet"

    @property
    def build_report(self) -> Path:
        return self.root / "build_report.json"

    @property
    def build_report_md(self) -> Path:
        return self.root / "build_report.md"
