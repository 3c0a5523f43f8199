"""Synthetic references for the demo: merged synopses, through the review stage, demo only."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from lengthwise.annotation.demo_references import demo_references, merge_synopses, spread
from lengthwise.annotation.review.measure import count_units
from lengthwise.builders.build import run_build
from lengthwise.builders.demo_corpus import demo_books, write_demo_corpus, write_demo_spec
from lengthwise.builders.demo_synopses import SIDECAR_NAME, NotDemoCorpusError
from lengthwise.cli import main
from lengthwise.spec import load_spec


def test_merge_keeps_chapter_order_and_fits_the_limit() -> None:
    chapters = [[f"c{c}s{i} word word." for i in range(6)] for c in range(3)]
    merged = merge_synopses(chapters, "en", limit=30)
    assert count_units(merged, "en") <= 30
    positions = [merged.index(f"c{c}s") for c in range(3)]
    assert positions == sorted(positions)  # chapter order kept
    assert merge_synopses(chapters, "en", limit=10_000).count("word word.") == 18  # all fit
    assert spread(["a", "b", "c", "d"], 2) == ["b", "d"]  # spread over the chapter
    assert merge_synopses([["甲乙丙。", "丁戊己。"]], "zh", limit=4) == "丁戊己。"


def test_sidecar_is_labelled_synthetic_and_lists_every_chapter(tmp_path: Path) -> None:
    write_demo_corpus(tmp_path)
    document = json.loads((tmp_path / SIDECAR_NAME).read_text(encoding="utf-8"))
    assert document["synthetic"] is True and "synthetic" in document["label"]
    books = {b.name: b for b in demo_books(document["seed"])}
    for entry in document["books"]:
        assert len(entry["chapters"]) == len(books[entry["file"]].chapters)
        assert all(chapter["synopsis"] for chapter in entry["chapters"])
    zh = next(e for e in document["books"] if e["language"] == "zh")
    assert "于" in zh["chapters"][0]["synopsis"][0]  # written in the book's language


def test_every_sample_gets_a_synthetic_reference_through_finalize(
    demo_build: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec_path, source = demo_build
    work = tmp_path / "work"
    shutil.copytree(source, work)
    spec = load_spec(spec_path)
    result = demo_references(spec, work)
    assert result.written == sum(s.count for s in spec.subsets) and result.unchanged == 0
    for subset in spec.subsets:
        rows = pq.read_table(work / "samples_annotated" / f"{subset.name}.parquet").to_pylist()
        assert rows and all(r["summary"] and r["summary"].strip() for r in rows)
        assert {r["reference_origin"] for r in rows} == {"synthetic reference (demo)"}
        assert {r["summary_annotator"] for r in rows} == {"synthetic reference (demo)"}
        assert all(not r["quality_flags"] for r in rows)  # within limits, rewritten
        assert all('"origin": "synthetic reference (demo)"' in r["annotations"] for r in rows)
    report = (work / "annotations" / "report.md").read_text(encoding="utf-8")
    assert "synthetic references (demo)" in report
    before = (work / "annotations" / "annotations.jsonl").read_bytes()
    assert main(["annotate", "demo-references", str(spec_path), "--work", str(work)]) == 0
    assert "0 written" in capsys.readouterr().out
    assert (work / "annotations" / "annotations.jsonl").read_bytes() == before


def test_a_corpus_that_is_not_the_demo_is_refused_before_anything_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_demo_corpus(tmp_path / "corpus")
    spec_path = write_demo_spec(tmp_path)
    book = tmp_path / "corpus" / "en_synthetic_2.txt"
    book.write_text(book.read_text(encoding="utf-8") + "\nA real book's last line.\n")
    run_build(load_spec(spec_path), tmp_path / "work", progress=False, workers=1)
    with pytest.raises(NotDemoCorpusError, match="en_synthetic_2"):
        demo_references(load_spec(spec_path), tmp_path / "work")
    assert not (tmp_path / "work" / "annotations").exists()
    (tmp_path / "corpus" / SIDECAR_NAME).unlink()
    assert main(["annotate", "demo-references", str(spec_path), "--work", str(tmp_path / "work")])
    error = capsys.readouterr().err
    assert SIDECAR_NAME in error and "Traceback" not in error
