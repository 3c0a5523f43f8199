"""Copies of one work across files, scripts and encodings: one cluster, one kept book, and
with every copy kept, no two samples of the work overlapping."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from lengthwise.builders.build import run_build
from lengthwise.cli import main
from lengthwise.records import Book
from lengthwise.spec import load_spec
from lengthwise.storage import read_jsonl
from tests.builders.duplicates.corpus_files import (
    EN,
    ZH,
    byte_copy,
    spec_file,
    traditional_gb18030_copy,
)

pytestmark = pytest.mark.slow
COPIES = {"xiyouji_utf8", "xiyouji_copy", "xiyouji_traditional_gb18030"}


@pytest.fixture(scope="module")
def corpus(shared_corpora: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("copies") / "books"
    original = shared_corpora / ZH / "xiyouji_utf8.txt"
    byte_copy(original, folder / "xiyouji_utf8.txt")
    byte_copy(original, folder / "xiyouji_copy.txt")
    traditional_gb18030_copy(original, folder / "xiyouji_traditional_gb18030.txt")
    byte_copy(shared_corpora / ZH / "sanguo_utf8.txt", folder / "sanguo_utf8.txt")
    byte_copy(shared_corpora / EN / "alice_in_wonderland.txt", folder / "alice.txt")
    return folder


def _inspect(capsys: pytest.CaptureFixture[str], path: Path) -> dict[str, dict[str, Any]]:
    assert main(["inspect", str(path), "--json"]) == 0
    books = json.loads(capsys.readouterr().out)["books"]
    return {b["id"]: b for b in books}


def test_inspect_names_the_copies_and_their_similarity(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    books = _inspect(capsys, corpus)
    assert books["xiyouji_traditional_gb18030"]["encoding"].lower() in {"gb18030", "gbk"}
    marked = {i: b["duplicate_of"] for i, b in books.items() if b["duplicate_of"]}
    assert set(marked) | {next(iter(marked.values()))["kept"]} == COPIES
    kept = {entry["kept"] for entry in marked.values()}
    assert len(kept) == 1 and kept <= COPIES
    for entry in marked.values():
        # Same chapters whatever the script: near-identical after t2s conversion.
        assert entry["similarity"] >= 0.9
        assert entry["chapter_share"] >= 0.95
    assert books["sanguo_utf8"]["duplicate_of"] is None
    assert books["alice"]["duplicate_of"] is None


def _samples(work: Path) -> list[dict[str, Any]]:
    return pq.read_table(work / "samples" / "M.parquet").to_pylist()


def _numbers(work: Path) -> dict[str, list[int | None]]:
    books = [Book.from_dict(row) for row in read_jsonl(work / "corpus" / "books.jsonl")]
    return {b.id: [c.number for c in b.chapters] for b in books}


def test_build_keeps_one_copy_and_says_why(corpus: Path, tmp_path: Path) -> None:
    spec = load_spec(spec_file(tmp_path, corpus))
    report = run_build(spec, tmp_path / "work", progress=False, workers=2).report.to_json()
    clusters = report["duplicates"]["clusters"]
    assert len(clusters) == 1
    cluster = clusters[0]
    dropped = {m["book_id"] for m in cluster["members"]}
    assert dropped | {cluster["kept"]} == COPIES and cluster["kept"] not in dropped
    for member in cluster["members"]:
        prefix = f"duplicate of {cluster['kept']} (similarity "
        assert member["reason"].startswith(prefix)
        assert float(member["reason"][len(prefix) :].split(",")[0]) >= 0.9
    sampled = {s["book_id"] for s in _samples(tmp_path / "work")}
    assert sampled & COPIES == {cluster["kept"]}
    assert report["stages"]["duplicates"]["dropped"] == {"duplicate-work": 2}
    markdown = (tmp_path / "work" / "build_report.md").read_text(encoding="utf-8")
    assert "## Duplicate works" in markdown
    assert all(f"| {cluster['kept']} | {book} |" in markdown for book in dropped)


def test_keep_all_never_samples_one_work_twice_over_the_same_chapters(
    corpus: Path, tmp_path: Path
) -> None:
    spec = load_spec(spec_file(tmp_path, corpus, '[duplicates]\nkeep = "all"\n', count=12))
    report = run_build(spec, tmp_path / "work", progress=False, workers=2).report.to_json()
    samples = _samples(tmp_path / "work")
    numbers = _numbers(tmp_path / "work")
    sampled = {s["book_id"] for s in samples}
    assert len(sampled & COPIES) >= 2, "every copy is kept and sampled"
    covered: list[tuple[str, set[int | None]]] = []
    for sample in samples:
        if sample["book_id"] not in COPIES:
            continue
        printed = set(
            numbers[sample["book_id"]][sample["first_chapter"] : sample["last_chapter"] + 1]
        )
        for other_book, other in covered:
            assert not printed & other, f"{sample['id']} overlaps a sample of {other_book}"
        covered.append((sample["book_id"], printed))
    assert report["subsets"]["M"]["refused_copy_overlap"], "the overlaps were found and refused"
