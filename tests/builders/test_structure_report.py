"""Text outside chapters and structure doubts reach what a person reads: the build output
and build_report.md."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from lengthwise.builders.build_summary import story_collection_line
from lengthwise.builders.corpus_settings import BookReport
from lengthwise.builders.demo_corpus import write_demo_corpus, write_demo_spec
from lengthwise.builders.structure_report import render_structure_section
from lengthwise.cli import main


def _book(title: str, path: str, **fields: object) -> BookReport:
    data = {"path": path, "id": "b", "title": title, "language": "en", "encoding": "utf-8",
            "chapters": 3, "numbers": [], "kinds": [], "gaps": [], "duplicates": [],
            "removed": {}, "removed_examples": {}, "excluded": None, **fields}  # fmt: skip
    return BookReport.from_json(data, "test")


def test_section_lists_outside_spans_gaps_duplicates_and_warnings() -> None:
    book = {
        "title": "Moby Dick",
        "path": "moby.txt",
        "outside_chapters": {
            "text_chars": 1000,
            "chapter_chars": 700,
            "separator_chars": 0,
            "outside_chars": 300,
            "share": 0.3,
            "spans": [
                {
                    "kind": "front",
                    "offset": 0,
                    "length": 300,
                    "first_words": "ETYMOLOGY",
                    "note": "",
                }
            ],
        },
        "gaps": [[24, 24]],
        "duplicates": [25],
        "front_matter_headings": ["楔子"],
        "warnings": ["1 chapter(s) over 5x the median length", "30% is outside chapters"],
    }
    text = "\n".join(render_structure_section([_book(**book)]))
    assert "text outside chapters: 300 of 1,000 chars (30.00%)" in text
    assert 'front matter, 300 chars at offset 0: "ETYMOLOGY"' in text
    assert "missing chapter numbers: 24" in text and "printed twice: 25" in text
    assert "楔子" in text and "warning: 1 chapter(s) over 5x" in text
    quiet = _book("Fine", "f.txt", outside_chapters=None, warnings=[])
    assert "Every book's text is inside its chapters" in "\n".join(
        render_structure_section([quiet])
    )


def test_build_prints_and_reports_text_outside_chapters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = write_demo_corpus(tmp_path / "corpus")
    book = files[0]
    preface = "\n\n".join(["A long preface that belongs to no chapter at all."] * 400)
    book.write_text(
        book.read_text(encoding="utf-8").replace("CONTENTS", f"PREFACE\n\n{preface}\n\nCONTENTS"),
        encoding="utf-8",
    )
    spec = write_demo_spec(tmp_path)
    assert main(["build", str(spec), "--work", str(tmp_path / "work"), "--quiet"]) == 0
    out = capsys.readouterr().out
    warnings = out[out.index("\nwarnings:") :]
    assert f"  {book}" in warnings and "outside chapters" in warnings
    report = (tmp_path / "work" / "build_report.md").read_text(encoding="utf-8")
    assert "## Book structure" in report
    assert "text outside chapters: 20," in report and "(23." in report


def test_a_story_collection_is_named_in_the_report_and_the_build_output() -> None:
    """Issue 36: a collection (卷 as stories) said nothing about being one."""
    collection = _book("今古奇觀", "jingu.txt", story_collection=True)
    novel = _book("Novel", "novel.txt")
    text = "\n".join(render_structure_section([collection, novel]))
    assert "**今古奇觀**" in text and "story collection: each unit is a story" in text
    assert "**Novel**" not in text
    report = SimpleNamespace(books=[collection, novel])
    line = story_collection_line(report)  # type: ignore[arg-type]
    assert line is not None and line.startswith("story collections: 1 (今古奇觀)")
    assert story_collection_line(SimpleNamespace(books=[novel])) is None  # type: ignore[arg-type]
