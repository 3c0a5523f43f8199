"""Truncation sensitivity on hand-made runs: a model that ignores the second half."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from lengthwise.cli import main
from lengthwise.evaluation.metrics import rouge_l
from lengthwise.storage import read_json
from tests.evaluation.analyses.handmade import Rows, plot_has_content, summary_from, write_run

FRACTIONS = (1.0, 0.5, 0.25)


def _reference(row: dict[str, Any]) -> str:
    """What a whole-text summary says: sentences spread over the whole context."""
    return summary_from(row, 0, 1, count=8)


def _runs(root: Path, release: Path, rows: Rows, reads: float) -> list[Path]:
    """One run per fraction; the model reads at most the first `reads` of the full context."""
    folders = []
    for fraction in FRACTIONS:

        def answer(row: dict[str, Any], fraction: float = fraction) -> str:
            return summary_from(row, 0, min(fraction, reads), count=8)

        folders.append(
            write_run(
                root / f"{reads}-{fraction}",
                release,
                rows,
                answer,
                score=lambda row, prediction: rouge_l(prediction, _reference(row), row["language"]),
                results_extra={"context_fraction": fraction},
                model=f"reads-{reads}",
            )
        )
    return folders


def test_a_model_ignoring_the_second_half_loses_nothing_at_half_the_context(
    tiny_release: Path, release_rows: Rows, tmp_path: Path
) -> None:
    lazy = _runs(tmp_path, tiny_release, release_rows, reads=0.5)
    out = tmp_path / "lazy"
    assert main(["analyse", "truncation", *map(str, lazy), "--out", str(out)]) == 0
    table = read_json(out / "truncation.json")
    for subset in ("S", "M"):
        entry = table["tasks"]["summarization"][subset]
        rows = {row["fraction"]: row for row in entry["rows"]}
        assert entry["n"] == 4
        assert rows[0.5]["drop"] == pytest.approx(0.0)  # no drop with half the context gone
        assert rows[0.25]["drop"] > 1.0  # a quarter cuts into what it reads
        # Half the context gone and nothing moved: the release check flags it.
        assert entry["insensitive"] is True
    plot_has_content(out / "truncation_score_by_fraction.png")


def test_whole_text_model_drops_and_a_flat_benchmark_is_flagged(
    tiny_release: Path, release_rows: Rows, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    whole = _runs(tmp_path, tiny_release, release_rows, reads=1.0)
    out = tmp_path / "whole"
    assert main(["analyse", "truncation", *map(str, whole), "--out", str(out)]) == 0
    entry = read_json(out / "truncation.json")["tasks"]["summarization"]["M"]
    half = next(row for row in entry["rows"] if row["fraction"] == 0.5)
    assert half["relative_drop"] > 0.1
    assert entry["insensitive"] is False

    # Only the full and half runs of the lazy model: nothing moves, the release check says so.
    lazy = _runs(tmp_path / "lazy", tiny_release, release_rows, reads=0.5)[:2]
    capsys.readouterr()
    assert main(["analyse", "truncation", *map(str, lazy), "--out", str(tmp_path / "o")]) == 0
    assert "RELEASE CHECK summarization S" in capsys.readouterr().out
    # --fractions overrides what the runs say, and must match their number.
    assert main(["analyse", "truncation", *map(str, lazy), "--fractions", "1"]) == 2


def test_the_release_card_reads_the_check_this_analysis_writes(
    tiny_release: Path, release_rows: Rows, tmp_path: Path
) -> None:
    from lengthwise.releases.release.long_context import (
        long_context_section,
        read_long_context_check,
    )

    lazy = _runs(tmp_path / "lazy", tiny_release, release_rows, reads=0.5)
    whole = _runs(tmp_path / "whole", tiny_release, release_rows, reads=1.0)
    for name, runs in (("lazy", lazy), ("whole", whole)):
        assert main(["analyse", "truncation", *map(str, runs), "--out", str(tmp_path / name)]) == 0
    flat = read_long_context_check(tmp_path / "lazy" / "truncation.json")
    assert [(g.subset, g.insensitive) for g in flat.groups] == [("M", True), ("S", True)]
    assert sorted(flat.runs.values()) == sorted(FRACTIONS)
    section = long_context_section(flat)
    assert section.count("**does not measure long context**") == 2
    assert "**Warning:** summarization M, summarization S" in section
    needed = long_context_section(read_long_context_check(tmp_path / "whole" / "truncation.json"))
    assert "needs the context" in needed and "Warning" not in needed
