"""Position bias on hand-made needle lines whose accuracy depends on depth."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from lengthwise.cli import main
from lengthwise.evaluation.analyses.position_bias import depth_table
from lengthwise.evaluation.analyses.run_data import RunItem
from lengthwise.storage import read_json
from tests.evaluation.analyses.handmade import Rows, plot_has_content, summary_from, write_run


def _needle(depth: float, score: float) -> RunItem:
    return RunItem(
        "S",
        f"n{depth}",
        "IB",
        "needle",
        "needle",
        "i",
        "en",
        "x",
        score,
        "ok",
        "ctx",
        None,
        depth=depth,
    )


def test_depth_table_bins_by_thirds_and_deciles() -> None:
    # Lost in the middle: found at the edges, missed in the middle.
    items = [_needle(d / 20, 0.0 if 0.34 <= d / 20 < 0.66 else 1.0) for d in range(21)]
    table = depth_table(items)
    assert table["n"] == 21
    assert table["thirds"]["front"] == 100.0 and table["thirds"]["rear"] == 100.0
    assert table["thirds"]["middle"] == pytest.approx(0.0)
    assert table["deciles"][0] == 100.0 and table["deciles"][5] == 0.0


def test_needle_lines_and_summaries_in_one_command(
    tiny_release: Path, release_rows: Rows, tmp_path: Path
) -> None:
    depths = {str(row["id"]): n / 4 for rows in release_rows.values() for n, row in enumerate(rows)}

    def needle_fields(row: dict[str, Any]) -> dict[str, Any]:
        return {"task": "needle", "family": "needle", "depth": depths[str(row["id"])]}

    needles = write_run(
        tmp_path / "needles",
        tiny_release,
        release_rows,
        lambda row: "the needle",
        score=lambda row, _: 1.0 if depths[str(row["id"])] < 0.5 else 0.0,
        extra=needle_fields,
        model="needles",
    )
    summaries = write_run(
        tmp_path / "summaries", tiny_release, release_rows, lambda r: summary_from(r, 0, 1 / 3)
    )
    out = tmp_path / "out"
    assert main(["analyse", "position-bias", str(needles), str(summaries), "--out", str(out)]) == 0
    table = read_json(out / "position_bias.json")
    entry = table["depth"]["needles (handmade)"]["needle"]["S"]
    # Depths 0, 0.25 (front, found), 0.5 (middle, missed), 0.75 (rear, missed).
    assert entry["thirds"] == {"front": 100.0, "middle": 0.0, "rear": 0.0}
    assert entry["thirds_n"] == {"front": 2, "middle": 1, "rear": 1}
    curve = table["summary_traceability"]["handmade (handmade)"]["subsets"]["S"]["IB"]
    assert curve["thirds"]["beginning"] >= 0.9
    assert "needles (handmade)" not in table["summary_traceability"]  # needles are not summaries
    for name in table["plots"]:
        plot_has_content(out / name)


def test_prompts_are_not_pooled_and_each_third_has_n_and_an_interval(
    tiny_release: Path, release_rows: Rows, tmp_path: Path
) -> None:
    depths = {str(row["id"]): n / 4 for rows in release_rows.values() for n, row in enumerate(rows)}

    def needle_fields(row: dict[str, Any]) -> dict[str, Any]:
        return {"task": "needle", "family": "needle", "depth": depths[str(row["id"])]}

    def found(row: dict[str, Any], _: str) -> float:
        # IB finds the front needles only; IE finds every needle.
        return 1.0 if row["prompt"] == "IE" or depths[str(row["id"])] < 0.5 else 0.0

    run = write_run(
        tmp_path / "run",
        tiny_release,
        release_rows,
        lambda row: "the needle",
        score=found,
        extra=needle_fields,
        prompts=("IB", "IE"),
        model="needles",
    )
    out = tmp_path / "out"
    assert main(["analyse", "position-bias", str(run), "--out", str(out)]) == 0
    entry = read_json(out / "position_bias.json")["depth"]["needles (handmade)"]["needle"]["S"]
    assert entry["thirds"]["rear"] == 50.0  # pooled: half the rear answers right
    assert entry["by_prompt"]["IB"]["thirds"] == {"front": 100.0, "middle": 0.0, "rear": 0.0}
    assert entry["by_prompt"]["IE"]["thirds"] == {"front": 100.0, "middle": 100.0, "rear": 100.0}
    assert entry["thirds_n"] == {"front": 4, "middle": 2, "rear": 2}
    low, high = entry["thirds_ci"]["rear"]
    assert low == 0.0 and high == 100.0  # one right, one wrong: the interval says so
