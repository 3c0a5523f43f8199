"""A chapter printed twice is kept once; no sample spans a gap in the chapter numbering;
builds stay deterministic and a rebuild with nothing changed does nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from lengthwise.builders.build import run_build
from lengthwise.spec import load_spec
from tests.builders.duplicates.corpus_files import EN, byte_copy, spec_file

pytestmark = pytest.mark.slow


def _lines(shared: Path) -> list[str]:
    text = (shared / EN / "pride_and_prejudice.txt").read_text(encoding="utf-8")
    return text.splitlines()


def _heading_line(lines: list[str], number: int) -> int:
    return lines.index(f"Chapter {number}")


def _samples(work: Path) -> list[dict[str, Any]]:
    return pq.read_table(work / "samples" / "M.parquet").to_pylist()


@pytest.fixture(scope="module")
def repeated_book(shared_corpora: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Pride and Prejudice with chapter 5 printed twice in a row."""
    lines = _lines(shared_corpora)
    start, stop = _heading_line(lines, 5), _heading_line(lines, 6)
    folder = tmp_path_factory.mktemp("repeat") / "books"
    folder.mkdir()
    doubled = lines[:stop] + lines[start:stop] + lines[stop:]
    (folder / "pp_repeat.txt").write_text("\n".join(doubled), encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def gap_book(shared_corpora: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Pride and Prejudice jumping from chapter 1 to chapter 12."""
    lines = _lines(shared_corpora)
    folder = tmp_path_factory.mktemp("gap") / "books"
    folder.mkdir()
    jumped = lines[: _heading_line(lines, 2)] + lines[_heading_line(lines, 12) :]
    (folder / "pp_gap.txt").write_text("\n".join(jumped), encoding="utf-8")
    return folder


def test_a_chapter_printed_twice_is_kept_once(repeated_book: Path, tmp_path: Path) -> None:
    spec = load_spec(spec_file(tmp_path, repeated_book, lower=20_000))
    report = run_build(spec, tmp_path / "work", progress=False, workers=1).report.to_json()
    (book,) = report["books"]
    assert book["chapters"] == 62  # as detected: the repeat is a chapter of its own
    (repeat,) = report["duplicates"]["repeated_chapters"]
    assert (repeat["index"], repeat["repeats_index"], repeat["similarity"]) == (5, 4, 1.0)
    samples = _samples(tmp_path / "work")
    assert samples
    for sample in samples:
        titles = sample["chapter_titles"]
        assert len(titles) == len(set(titles)), f"{sample['id']} holds a chapter twice"
    markdown = (tmp_path / "work" / "build_report.md").read_text(encoding="utf-8")
    assert "Chapters printed twice inside a book (later copy dropped): 1." in markdown


def _spans_gap(sample: dict[str, Any]) -> bool:
    return bool(sample["first_chapter"] == 0 and sample["last_chapter"] >= 1)


def test_no_sample_spans_a_numbering_gap_unless_allowed(gap_book: Path, tmp_path: Path) -> None:
    spec = load_spec(spec_file(tmp_path, gap_book, lower=20_000))
    report = run_build(spec, tmp_path / "strict", progress=False, workers=1).report.to_json()
    samples = _samples(tmp_path / "strict")
    assert samples and not any(_spans_gap(s) for s in samples)
    assert report["subsets"]["M"]["refused_number_gaps"] >= 1
    markdown = (tmp_path / "strict" / "build_report.md").read_text(encoding="utf-8")
    assert "## Contiguity" in markdown

    allowed = spec_file(tmp_path, gap_book, "[sampling]\nallow_number_gaps = true\n", 20_000)
    report = run_build(
        load_spec(allowed), tmp_path / "allowed", progress=False, workers=1
    ).report.to_json()
    assert any(_spans_gap(s) for s in _samples(tmp_path / "allowed"))
    assert report["subsets"]["M"]["refused_number_gaps"] == 0


def test_same_seed_same_samples_and_rebuild_is_up_to_date(
    repeated_book: Path, gap_book: Path, tmp_path: Path
) -> None:
    corpus = tmp_path / "books"
    byte_copy(repeated_book / "pp_repeat.txt", corpus / "pp_repeat.txt")
    byte_copy(gap_book / "pp_gap.txt", corpus / "pp_gap.txt")
    spec = load_spec(spec_file(tmp_path, corpus, '[duplicates]\nkeep = "all"\n', 20_000, 8))
    first = run_build(spec, tmp_path / "a", progress=False, workers=2)
    second = run_build(spec, tmp_path / "b", progress=False, workers=1)
    # The gap edition is a partial copy of the other: the overlap rule is exercised too.
    assert len(first.report.to_json()["duplicates"]["clusters"]) == 1
    assert _samples(tmp_path / "a") == _samples(tmp_path / "b")
    assert first.report.to_json()["duplicates"] == second.report.to_json()["duplicates"]
    again = run_build(spec, tmp_path / "a", progress=False, workers=1)
    assert again.up_to_date
