"""Prompt sensitivity on a hand-made run where one prompt is always better."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from lengthwise.cli import main
from lengthwise.storage import read_json
from tests.evaluation.analyses.handmade import Rows, plot_has_content, write_run


def test_paired_test_and_msd(tiny_release: Path, release_rows: Rows, tmp_path: Path) -> None:
    def score(row: dict[str, Any], _: str) -> float:
        return 0.6 if row["prompt"] == "IE" else 0.4  # IE beats IB by 20 points everywhere

    run = write_run(
        tmp_path / "run",
        tiny_release,
        release_rows,
        lambda r: "x",
        score=score,
        prompts=("IB", "IE"),
    )
    out = tmp_path / "out"
    assert main(["analyse", "prompt-sensitivity", str(run), "--out", str(out)]) == 0
    [entry] = read_json(out / "prompt_sensitivity.json")["runs"]["handmade (handmade)"][
        "summarization"
    ]
    assert entry["baseline_prompt"] == "IB" and entry["prompt"] == "IE"
    assert entry["msd"] == pytest.approx(400.0)  # (60 - 40)^2 in both subsets
    for subset in ("S", "M"):
        paired = entry["paired"][subset]
        assert paired["mean_difference"] == pytest.approx(20.0)
        assert (paired["wins"], paired["losses"], paired["ties"]) == (4, 0, 0)
        assert paired["sign_test_p"] == pytest.approx(0.125)
        assert paired["ci"] == pytest.approx([20.0, 20.0])
    plot_has_content(out / "prompt_sensitivity_paired_differences.png")
