"""The README's main command from scratch: every stage ends with numbers a newcomer can read."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from matplotlib import image

REPO = Path(__file__).resolve().parents[2]
LENGTHWISE = Path(sys.executable).parent / "lengthwise"
SUMMARY_FIGURES = ("uniformity", "compression_tokens", "coverage", "density", "redundancy")


def _run_demo(out: Path) -> str:
    env = {**os.environ, "LW": str(LENGTHWISE), "DEMO_EVAL_LIMIT": "2"}
    done = subprocess.run(
        ["bash", str(REPO / "scripts" / "demo.sh"), str(out)],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=900, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout


def _score_table(report: str) -> tuple[list[str], dict[str, list[str]]]:
    """(run labels, subset -> cells) of the first score table in report.md."""
    block = report.split("### Prompt IB", 1)[1].split("\n\n", 2)[1]
    lines = [line for line in block.splitlines() if line.startswith("|")]
    labels = [c.strip() for c in lines[0].strip("|").split("|")][1:]
    rows = {}
    for line in lines[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[cells[0]] = cells[1:]
    return labels, rows


def _check_plot(path: Path) -> None:
    pixels = image.imread(path)
    assert pixels.shape[0] > 200 and pixels.shape[1] > 300, path
    rgb = pixels[..., :3]
    assert float(rgb.std()) > 0.01, f"{path} is a uniform image"
    coloured = (rgb.max(axis=2) - rgb.min(axis=2)) > 0.25  # lines and bars, not axes/text
    assert float(np.mean(coloured)) > 0.002, f"{path} has no coloured marks (an empty plot?)"


@pytest.mark.slow
def test_demo_from_scratch_ends_with_numbers_and_reruns_for_free(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    printed = _run_demo(out)
    work = out / "work"
    spec_subsets = ("S", "M", "L")
    for subset in spec_subsets:
        rows = pq.read_table(work / "samples_annotated" / f"{subset}.parquet").to_pylist()
        assert rows and all(isinstance(r["summary"], str) and r["summary"] for r in rows)

    stats = json.loads((work / "stats" / "stats.json").read_text(encoding="utf-8"))
    for subset in spec_subsets:
        figures = stats["subsets"][subset]["summaries"]
        assert figures["status"] == "present"
        for name in SUMMARY_FIGURES:
            assert figures["metrics"][name]["n"] > 0 and figures["metrics"][name]["mean"] > 0
        assert stats["subsets"][subset]["information_coverage"]["computed"] is False

    card = (work / "releases" / "v0.1.0" / "README.md").read_text(encoding="utf-8")
    assert "Synthetic references" in card and "References missing" not in card
    assert "not computed" in card  # IC without a judge, said so

    report = (out / "eval" / "report" / "report.md").read_text(encoding="utf-8")
    labels, rows = _score_table(report)
    assert labels == ["tiny-model (transformers)", "lead-3 (baseline)", "random-3 (baseline)"]
    assert set(rows) == set(spec_subsets)
    for cells in rows.values():
        for label, cell in zip(labels, cells, strict=True):
            n = int(re.search(r"\(n=(\d+)\)", cell).group(1))  # type: ignore[union-attr]
            assert n > 0, (label, cell)
            if "baseline" in label:
                assert float(cell.split()[0]) > 0, (label, cell)
    assert "References are synthetic (demo)" in report
    for plot in ("scores_by_length.png", "outcome_shares.png"):
        _check_plot(out / "eval" / "report" / plot)

    last = printed.strip().splitlines()[-4:]
    assert last[0].startswith("report:") and "report.md" in last[0]
    assert last[1].startswith("viewer:") and (out / "eval" / "report" / "report.html").is_file()
    assert last[2].startswith("analyses:")
    traceability = json.loads((out / "eval" / "analyses" / "traceability.json").read_text())
    assert traceability["analysis"] == "traceability"
    assert re.match(r"best baseline: (lead|random)-3 \(baseline\).*ROUGE-L \d+\.\d\d", last[3])
    # The task families of the demo spec: built, released, and the tiny model ran ordering.
    assert re.search(r"ordering S \(ordering\): \d+ of \d+ instances", printed)
    assert (work / "releases" / "v0.1.0" / "ordering-S" / "test-00000-of-00001.parquet").is_file()
    results = json.loads((out / "eval" / "tiny-model" / "results.json").read_text())
    assert set(results["tasks"]) == {"summarization", "ordering"}

    again = _run_demo(out)  # a rerun regenerates nothing
    assert "synthetic references (demo): 0 written" in again
    assert again.count("generated 0, reused 6 finished pairs") == 2, again  # the baselines
    assert "generated 0, reused 10 finished pairs" in again  # tiny model: 6 summaries, 4 orders
