"""Medoid voting on hand-made runs: k copies, one odd answer out, not-found filtering."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from lengthwise.cli import main
from lengthwise.evaluation.analyses.medoid import medoid_index
from lengthwise.storage import read_json
from tests.evaluation.analyses.handmade import Rows, plot_has_content, summary_from, write_run


def test_k_copies_of_one_output_return_it() -> None:
    outputs = ["The ferryman keeps the ledger."] * 4
    assert medoid_index(outputs, "en") == 0
    assert medoid_index(outputs, "en", "embedding") == 0


def test_the_odd_one_out_is_never_chosen_and_not_found_is_filtered() -> None:
    outputs = [
        "Nothing relevant was not found in the text.",
        "Ada found the map near the old library.",
        "Ada found a map near the library.",
        "Ada found the map in the old library.",
    ]
    assert medoid_index(outputs, "en") in (1, 2, 3)
    not_found = ["The answer is not found in the document."] * 3 + ["Ada found the map."]
    assert medoid_index(not_found, "en") == 0
    assert medoid_index(not_found, "en", drop_not_found=True) == 3


def test_medoid_over_permuted_runs_beats_a_single_run(
    tiny_release: Path, release_rows: Rows, tmp_path: Path
) -> None:
    # Three "permutation" runs: two agree on a good answer, one rambles from the end.
    def good(row: dict[str, Any]) -> str:
        return summary_from(row, 0, 0.3, count=3)

    def bad(row: dict[str, Any]) -> str:
        return summary_from(row, 0.7, 1, count=3)

    def scored(row: dict[str, Any], prediction: str) -> float:
        return 1.0 if prediction == good(row) else 0.0

    runs = [
        write_run(
            tmp_path / name,
            tiny_release,
            release_rows,
            fn,
            score=scored,
            model=name,
            results_extra={"permutation": {"set": "p", "index": index}},
        )
        for index, (name, fn) in enumerate((("p1", good), ("p2", bad), ("p3", good)))
    ]
    control = [
        write_run(tmp_path / f"c{n}", tiny_release, release_rows, bad, score=scored, model=f"c{n}")
        for n in (1, 2)
    ]
    out = tmp_path / "out"
    args = ["analyse", "medoid", *map(str, runs), "--control", *map(str, control)]
    assert main([*args, "--out", str(out)]) == 0
    table = read_json(out / "medoid.json")
    assert table["k"] == 3
    for subset in ("S", "M"):
        group = table["groups"][f"summarization/{subset}"]
        assert group["n"] == 4
        assert group["medoid_mean"] == pytest.approx(100.0)
        assert group["single_run_mean"] == pytest.approx(200 / 3)
        assert group["gain_over_single"] == pytest.approx(100 / 3)
        assert group["control_medoid_mean"] == pytest.approx(0.0)
        assert set(group["chosen"].values()) <= {"p1 (handmade)", "p3 (handmade)"}
    plot_has_content(out / "medoid_gain.png")


def test_runs_not_declared_permutations_of_the_same_items_are_refused(
    tiny_release: Path, release_rows: Rows, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def answer(row: dict[str, Any]) -> str:
        return summary_from(row, 0, 0.3, count=3)

    def run(name: str, rows: Rows, permutation: dict[str, Any] | None) -> str:
        extra = {"permutation": permutation} if permutation else {}
        folder = write_run(
            tmp_path / name, tiny_release, rows, answer, model=name, results_extra=extra
        )
        return str(folder)

    full, truncated = run("full", release_rows, None), run("truncated", release_rows, None)
    first = run("p0", release_rows, {"set": "a", "index": 0})
    other_set = run("q1", release_rows, {"set": "b", "index": 1})
    rebuilt = run("p1", {"S": release_rows["S"]}, {"set": "a", "index": 1})  # other items
    twice = run("p0-again", release_rows, {"set": "a", "index": 0})
    for folders, says in (
        ([full, truncated], "not declared a permutation run"),
        ([first, other_set], "permutations of different sets"),
        ([first, rebuilt], "share 4 of 8 items"),
        ([first, twice], "indexes repeat"),
    ):
        out = tmp_path / "out"
        capsys.readouterr()
        assert main(["analyse", "medoid", *folders, "--out", str(out)]) == 2, says
        error = capsys.readouterr().err.strip()
        assert says in error and len(error.splitlines()) == 1, error
        assert not (out / "medoid.json").exists()
