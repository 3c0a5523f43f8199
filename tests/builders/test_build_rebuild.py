"""Rebuilds that skip work (unchanged sources, cached corpus) give what a cold build gives,
and a changed input is still noticed."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from lengthwise.builders import build as build_module
from lengthwise.builders.build import run_build
from lengthwise.builders.build_snapshot import read_snapshot, snapshot_key
from lengthwise.builders.demo_corpus import write_demo_corpus, write_demo_spec
from lengthwise.builders.sources import local as local_sources
from lengthwise.builders.sources import stat_cache
from lengthwise.spec import Spec, load_spec
from lengthwise.stage_state import CompletionRecord
from lengthwise.storage import read_json, read_jsonl
from lengthwise.workdir import WorkDir


@pytest.fixture
def demo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Spec:
    write_demo_corpus(tmp_path / "demo" / "corpus")
    # The corpus was written a moment ago: trust its stat at once (see RACY_NS).
    monkeypatch.setattr(stat_cache, "RACY_NS", 0)
    return load_spec(write_demo_spec(tmp_path / "demo"))


@pytest.fixture
def files_read(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Names of the source files actually read (decoded) from now on."""
    names: list[str] = []
    original: Callable[..., object] = local_sources._read_file

    def counting(path: Path, language: str | None) -> object:
        names.append(path.name)
        return original(path, language)

    monkeypatch.setattr(local_sources, "_read_file", counting)
    return names


def closest(spec: Spec) -> Spec:
    return spec.model_copy(
        update={"sampling": spec.sampling.model_copy(update={"policy": "closest"})}
    )


def stages(report: dict[str, Any]) -> dict[str, Any]:
    """The stage reports without their timings."""
    return {name: {**stage, "seconds": None} for name, stage in report["stages"].items()}


def samples(work: Path, spec: Spec) -> dict[str, list[dict[str, object]]]:
    return {
        s.name: pq.read_table(work / "samples" / f"{s.name}.parquet").to_pylist()
        for s in spec.subsets
    }


def test_sampling_only_rebuild_reads_no_source_and_equals_a_cold_build(
    demo: Spec, tmp_path: Path, files_read: list[str]
) -> None:
    run_build(demo, tmp_path / "work", progress=False, workers=1)
    files_read.clear()
    rebuilt = run_build(closest(demo), tmp_path / "work", progress=False, workers=1)
    assert files_read == []
    cold = run_build(closest(demo), tmp_path / "cold", progress=False, workers=1)
    assert samples(tmp_path / "work", demo) == samples(tmp_path / "cold", demo)
    assert stages(rebuilt.report.to_json()) == stages(cold.report.to_json())
    assert rebuilt.report.encoding_efficiency == cold.report.encoding_efficiency


def test_a_touched_source_is_read_again(demo: Spec, tmp_path: Path, files_read: list[str]) -> None:
    run_build(demo, tmp_path / "work", progress=False, workers=1)
    touched = demo_files(demo)[0]
    stat = touched.stat()
    os.utime(touched, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    files_read.clear()
    assert run_build(demo, tmp_path / "work", progress=False, workers=1).up_to_date
    assert files_read == [touched.name]


@pytest.mark.parametrize("version", ["PIPELINE_VERSION", "DETECTOR_VERSION"])
def test_a_new_cleaning_or_audit_version_rebuilds(
    demo: Spec, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, version: str
) -> None:
    """An upgrade that changes what cleaning or the audit finds, without a new release
    number, must not leave an old build standing as up to date."""
    assert not run_build(demo, tmp_path / "work", progress=False, workers=1).up_to_date
    assert run_build(demo, tmp_path / "work", progress=False, workers=1).up_to_date
    monkeypatch.setattr(build_module, version, "changed")
    assert not run_build(demo, tmp_path / "work", progress=False, workers=1).up_to_date


def test_a_changed_source_rebuilds_its_book(
    demo: Spec, tmp_path: Path, files_read: list[str]
) -> None:
    work = tmp_path / "work"
    run_build(demo, work, progress=False, workers=1)
    changed = demo_files(demo)[0]
    stat = changed.stat()
    text = changed.read_text(encoding="utf-8")
    changed.write_text(text.replace("the", "thy", 1), encoding="utf-8")  # same size
    os.utime(changed, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # and the old mtime
    files_read.clear()
    result = run_build(demo, work, progress=False, workers=1)
    assert not result.up_to_date
    # Planning reads only the changed file; processing its book needs every text again.
    assert files_read[0] == changed.name
    assert sorted(files_read[1:]) == sorted(p.name for p in demo_files(demo))
    cold = run_build(demo, tmp_path / "cold", progress=False, workers=1)
    assert samples(work, demo) == samples(tmp_path / "cold", demo)
    assert result.report.to_json()["books"] == cold.report.to_json()["books"]


def test_headers_only_with_a_stale_corpus_read_the_sources_again(
    demo: Spec, tmp_path: Path, files_read: list[str]
) -> None:
    """Unchanged files give header documents; if the corpus outputs cannot be reused the
    build reads the files again for their text."""
    work = tmp_path / "work"
    run_build(demo, work, progress=False, workers=1)
    (work / "corpus" / "books.jsonl").unlink()
    files_read.clear()
    rebuilt = run_build(closest(demo), work, progress=False, workers=1)
    assert len(files_read) == len(demo_files(demo))
    cold = run_build(closest(demo), tmp_path / "cold", progress=False, workers=1)
    assert samples(work, demo) == samples(tmp_path / "cold", demo)
    assert rebuilt.report.to_json()["books"] == cold.report.to_json()["books"]


def test_a_changed_sample_set_rewrites_the_parquet_files(demo: Spec, tmp_path: Path) -> None:
    work = tmp_path / "work"
    run_build(demo, work, progress=False, workers=1)
    fewer = demo.model_copy(
        update={"subsets": [s.model_copy(update={"count": 1}) for s in demo.subsets]}
    )
    run_build(fewer, work, progress=False, workers=1)
    assert all(len(rows) <= 1 for rows in samples(work, fewer).values())
    run_build(fewer, tmp_path / "cold", progress=False, workers=1)
    assert samples(work, fewer) == samples(tmp_path / "cold", fewer)


def test_stale_character_counts_are_counted_again(demo: Spec, tmp_path: Path) -> None:
    work = tmp_path / "work"
    cold = run_build(demo, work, progress=False, workers=1)
    counts = read_json(work / "cache" / "book_characters.json")
    counts["books"] = {book: 1 for book in counts["books"]}
    counts["corpus"] = "another corpus"
    (work / "cache" / "book_characters.json").write_text(str(counts).replace("'", '"'))
    rebuilt = run_build(closest(demo), work, progress=False, workers=1)
    assert rebuilt.report.encoding_efficiency == cold.report.encoding_efficiency


def demo_files(spec: Spec) -> list[Path]:
    return sorted((spec.base_dir / "corpus").rglob("*.txt"))


def test_the_books_snapshot_holds_exactly_the_rows_of_books_jsonl(
    demo: Spec, tmp_path: Path
) -> None:
    work = tmp_path / "work"
    run_build(demo, work, progress=False, workers=1)
    snapshot = WorkDir(work).books_snapshot
    record = CompletionRecord.load(work, "corpus")
    assert record is not None
    key = snapshot_key(record.fingerprint, record.outputs["corpus/books.jsonl"])
    assert read_snapshot(snapshot, key) == list(read_jsonl(work / "corpus" / "books.jsonl"))
    assert read_snapshot(snapshot, snapshot_key(record.fingerprint, "other books")) is None


def test_a_damaged_snapshot_falls_back_to_books_jsonl(demo: Spec, tmp_path: Path) -> None:
    work = tmp_path / "work"
    run_build(demo, work, progress=False, workers=1)
    snapshot = WorkDir(work).books_snapshot
    snapshot.write_bytes(snapshot.read_bytes()[:1000])  # torn
    run_build(closest(demo), work, progress=False, workers=1)
    run_build(closest(demo), tmp_path / "cold", progress=False, workers=1)
    assert samples(work, demo) == samples(tmp_path / "cold", demo)
    record = CompletionRecord.load(work, "corpus")
    assert record is not None
    key = snapshot_key(record.fingerprint, record.outputs["corpus/books.jsonl"])
    assert read_snapshot(snapshot, key) == list(read_jsonl(work / "corpus" / "books.jsonl"))
