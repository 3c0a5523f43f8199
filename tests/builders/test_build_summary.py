"""`lengthwise build`'s closing lines and build_report.md say what went wrong, all of it."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from lengthwise.builders.build_record import BuildReport, SubsetReport
from lengthwise.builders.build_summary import subset_line, warning_lines
from lengthwise.builders.demo_corpus import write_demo_corpus, write_demo_spec
from lengthwise.builders.sampling.summary import TokenFigures
from lengthwise.cli import main

# Four files share one drop reason: more than a stage report keeps as examples (three).
BAD_FILES = {
    **{f"empty_{i}.txt": b"" for i in range(4)},
    "image.txt": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 4,
    "notes_a.txt": b"Some notes without any chapter heading.\n" * 20,
    "notes_b.txt": b"More notes, still no chapters.\n" * 20,
    "notes_c.txt": b"A third file of notes.\n" * 20,
}


def test_build_output_lists_every_excluded_file_and_short_subset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_demo_corpus(tmp_path / "corpus")
    for name, data in BAD_FILES.items():
        (tmp_path / "corpus" / name).write_bytes(data)
    spec = write_demo_spec(tmp_path)
    spec.write_text(spec.read_text().replace("count = 12", "count = 500"))
    assert main(["build", str(spec), "--work", str(tmp_path / "w"), "--quiet"]) == 0
    out = capsys.readouterr().out
    closing = out[out.index("excluded:") :]
    for name in BAD_FILES:
        assert name in closing, f"{name} missing from the build output"
    assert "excluded: 8" in closing
    assert "subset S: short:" in closing and "of 500 requested samples" in closing
    report_md = (tmp_path / "w" / "build_report.md").read_text(encoding="utf-8")
    assert all(name in report_md for name in BAD_FILES)
    assert "subset S: short:" in report_md


def _subset(count: int, requested: int, q1: float, met: bool) -> SubsetReport:
    tokens = TokenFigures(1, q1, 15_000.0, 1, 1)
    selection = SimpleNamespace(count=count, requested=requested, books=3, tokens=tokens,
                                q1_met=met, q1_threshold=14_745.6)  # fmt: skip
    return SubsetReport(selection=selection, recount_dropped=[])  # type: ignore[arg-type]


def test_short_subset_below_q1_is_stated_not_just_counted() -> None:
    line = subset_line("L", _subset(52, 200, 13_200.0, False))
    assert line.startswith("L: 52 of 200 requested samples")
    assert "short: 52 of 200 requested samples (148 missing)" in line
    assert "Q1 rule failed: Q1 13,200 tokens < threshold 14,746" in line
    no_duplicates = {"keep": "one", "clusters": [], "repeated_chapters": []}
    report = BuildReport("t", "0", "chars", ["chars"], "first-fit", 0, {}, no_duplicates, [],
                         {"L": _subset(52, 200, 13_200.0, False)}, [], [])  # fmt: skip
    assert len(warning_lines(report)) == 2
    report.subsets = {"L": _subset(200, 200, 15_000.0, True)}
    assert warning_lines(report) == []
