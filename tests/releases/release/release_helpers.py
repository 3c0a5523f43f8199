"""Helpers for release tests: a small demo build and an annotator's output (a TEST FIXTURE).

Not a test module (no test_ prefix). tests/releases/hub loads it by path: test folders
are not packages.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from lengthwise.spec import Spec
from tests.fixtures.demo_build import build_demo


def demo_build(root: Path) -> tuple[Path, Path]:
    """Build the synthetic demo corpus once under `root`; return (spec path, work dir)."""
    return build_demo(root)


def copy_work(work: Path, destination: Path) -> Path:
    """A private copy of a built work dir (without its caches), for a test to release into."""
    shutil.copytree(work, destination, ignore=shutil.ignore_patterns("cache"))
    return destination


def read_rows(path: Path) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = pq.read_table(path).to_pylist()
    return rows


def write_rows(path: Path, rows: list[dict[str, Any]]) -> None:
    pq.write_table(pa.Table.from_pylist(rows), path)


def fake_summary(row: dict[str, Any], note: str = "") -> str:
    """TEST FIXTURE standing in for a human summary: built from the chapter titles."""
    titles = "; ".join(row["chapter_titles"])
    return f"[test fixture summary{note}] {row['book_title']}: {titles}"


def annotate(
    work: Path,
    subset: str,
    summaries: dict[str, str] | None = None,
    annotator: str = "ann.one@example.org",
) -> None:
    """TEST FIXTURE: write summaries into WORK/samples/<subset>.parquet as `annotate pull`
    would, with annotation metadata (annotators, flags) and a drafts column."""
    path = work / "samples" / f"{subset}.parquet"
    rows = read_rows(path)
    for row in rows:
        summary = fake_summary(row) if summaries is None else summaries.get(row["id"])
        row["summary"] = summary
        row["annotators"] = [annotator] if summary else []
        row["flags"] = ["over_limit"] if summary and len(summary) > 10_000 else []
        row["synopses"] = [f"draft for chapter {t}" for t in row["chapter_titles"]]
    write_rows(path, rows)


def annotate_all(work: Path, spec: Spec) -> None:
    for subset in spec.subsets:
        annotate(work, subset.name)
