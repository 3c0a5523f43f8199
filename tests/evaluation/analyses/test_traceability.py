"""Positional traceability on hand-made runs whose sources are known."""

from __future__ import annotations

from pathlib import Path

import pytest

from lengthwise.cli import main
from lengthwise.storage import read_json
from tests.evaluation.analyses.handmade import Rows, plot_has_content, summary_from, write_run


@pytest.fixture(scope="module")
def first_and_last_third(
    tiny_release: Path, release_rows: Rows, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("trace")
    first = write_run(
        root / "first", tiny_release, release_rows, lambda r: summary_from(r, 0, 1 / 3)
    )
    last = write_run(
        root / "last", tiny_release, release_rows, lambda r: summary_from(r, 2 / 3, 1), model="m2"
    )
    return first, last


def test_summaries_from_the_first_third_trace_to_the_first_third(
    first_and_last_third: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, last = first_and_last_third
    out = tmp_path / "out"
    assert main(["analyse", "traceability", str(first), str(last), "--out", str(out)]) == 0
    table = read_json(out / "traceability.json")
    for method in ("tfidf", "embedding"):
        by_run = table["methods"][method]
        for subset in ("S", "M"):
            early = by_run["handmade (handmade)"]["subsets"][subset]["IB"]
            late = by_run["m2 (handmade)"]["subsets"][subset]["IB"]
            assert early["samples"] == 4 and early["sentences"] >= 12
            assert early["thirds"]["beginning"] >= 0.9, (method, subset, early)
            assert late["thirds"]["end"] >= 0.9, (method, subset, late)
            assert sum(early["deciles"][:4]) == pytest.approx(1.0)  # nothing past 40 %
            # The reference baseline is traced too (one per sample, not per prompt).
            assert by_run["handmade (handmade)"]["subsets"][subset]["reference"]["samples"] == 4
        used = " ".join(by_run["handmade (handmade)"]["method_used"])
        # The release has Chinese and English samples: MiniLM for en, the fallback for zh.
        if method == "embedding":
            assert "MiniLM" in used and "no offline multilingual" in used
    printed = capsys.readouterr().out
    assert "beginning/middle/end" in printed
    assert len(table["plots"]) == 4
    for name in table["plots"]:
        plot_has_content(out / name)


def test_default_out_is_the_first_run_folder(first_and_last_third: tuple[Path, Path]) -> None:
    first, _ = first_and_last_third
    assert main(["analyse", "traceability", str(first), "--methods", "tfidf"]) == 0
    assert (first / "analyses" / "traceability.json").is_file()


def test_a_folder_without_results_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["analyse", "traceability", str(tmp_path)]) == 2
    assert "results.json" in capsys.readouterr().err
