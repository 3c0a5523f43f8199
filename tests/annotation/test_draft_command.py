"""`lengthwise draft` as a user runs it, without any LLM configured."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from lengthwise.cli import main


def test_draft_without_llm_uses_the_extractive_drafter_and_says_so(
    demo_build: tuple[Path, Path], draft_work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec, _ = demo_build
    assert main(["draft", str(spec), "--work", str(draft_work), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "extractive fallback" in out and "no [llm.drafter]" in out

    samples = [
        row
        for path in (draft_work / "samples").glob("*.parquet")
        for row in pq.read_table(path).to_pylist()
    ]
    drafts = {
        row["id"]: row
        for row in map(
            json.loads, (draft_work / "drafts" / "samples.jsonl").read_text().splitlines()
        )
    }
    assert set(drafts) == {s["id"] for s in samples}
    for sample in samples:
        chapters = drafts[sample["id"]]["chapters"]
        assert [c["chapter_sha256"] for c in chapters] == sample["chapter_sha256"]
        for chapter in chapters:
            assert chapter["drafter"] == "extractive" and chapter["model"] == "extractive-v1"
            assert chapter["draft"].strip(), f"empty draft in {sample['id']}"
            # Key sentences come from the chapter itself.
            first_sentence = chapter["draft"].split("。")[0].split(". ")[0]
            assert first_sentence in sample["text"]
    report = json.loads((draft_work / "drafts" / "report.json").read_text())
    assert report["drafter"] == "extractive" and report["extractive_fallback"] is True
    assert "extractive drafter" in (draft_work / "drafts" / "report.md").read_text()

    assert main(["draft", str(spec), "--work", str(draft_work)]) == 0
    assert "up to date" in capsys.readouterr().out


def test_draft_before_build_is_a_clear_error(
    demo_build: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec, _ = demo_build
    assert main(["draft", str(spec), "--work", str(tmp_path / "empty")]) == 2
    assert "run `lengthwise build" in capsys.readouterr().err


def test_stale_samples_are_a_clear_error(
    demo_build: tuple[Path, Path], draft_work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec, _ = demo_build
    sample = pq.read_table(sorted((draft_work / "samples").glob("*.parquet"))[0]).to_pylist()[0]
    books = draft_work / "corpus" / "books.jsonl"
    rows = [json.loads(line) for line in books.read_text(encoding="utf-8").splitlines()]
    book = next(r for r in rows if r["id"] == sample["book_id"])
    # As if the corpus had been rebuilt with different text after sampling.
    book["chapters"][sample["first_chapter"]]["sha256"] = "0" * 64
    books.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n")
    assert main(["draft", str(spec), "--work", str(draft_work)]) == 2
    err = capsys.readouterr().err
    assert "stale" in err and "books.jsonl" in err and sample["id"] in err
