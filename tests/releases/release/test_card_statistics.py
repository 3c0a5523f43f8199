"""The card's statistics: `lengthwise stats` output when present, "not computed" otherwise."""

from __future__ import annotations

import json
from pathlib import Path

from release_helpers import annotate_all, read_rows, write_rows

from lengthwise.releases.release import build_release
from lengthwise.spec import Spec
from lengthwise.storage import sha256_file

# A stand-in for what `lengthwise stats` writes (its real output is exercised in the
# acceptance test); only its placement in the card is checked here.
STATS_MD = """# Dataset statistics: demo

## Per subset

| subset | uniformity | compression |
|---|---:|---:|
| S | 0.81 | 12.5 |
"""


def _statistics(card: str) -> str:
    return card.split("\n### Dataset statistics\n", 1)[1].split("\n## Changes")[0]


def test_without_stats_the_card_says_not_computed(demo_spec: Spec, work: Path) -> None:
    annotate_all(work, demo_spec)
    folder = build_release(demo_spec, work, "1.0.0").folder
    section = _statistics((folder / "README.md").read_text(encoding="utf-8"))
    assert "**Not computed:**" in section
    assert "lengthwise stats" in section
    assert not (folder / "statistics.json").exists()


def test_stats_report_is_embedded_and_shipped(demo_spec: Spec, work: Path) -> None:
    annotate_all(work, demo_spec)
    stats = work / "stats"
    stats.mkdir()
    figures = {"S": {"n": 12, "uniformity": 0.81}, "M": {"n": 8}, "L": {"n": 6}}
    (stats / "stats.json").write_text(json.dumps({"subsets": figures}))
    (stats / "stats.md").write_text(STATS_MD, encoding="utf-8")
    folder = build_release(demo_spec, work, "1.0.0").folder
    section = _statistics((folder / "README.md").read_text(encoding="utf-8"))
    assert "#### Dataset statistics: demo" in section  # headings nest under the card's
    assert "##### Per subset" in section
    assert "| S | 0.81 | 12.5 |" in section
    assert "computed on other samples" not in section
    assert (folder / "statistics.json").read_bytes() == (stats / "stats.json").read_bytes()


def test_stats_of_other_samples_are_marked_stale(demo_spec: Spec, work: Path) -> None:
    annotate_all(work, demo_spec)
    stats = work / "stats"
    stats.mkdir()
    # Computed when S had 3 samples; the release has 12.
    (stats / "stats.json").write_text(json.dumps({"subsets": {"S": {"n": 3, "uniformity": 0.5}}}))
    folder = build_release(demo_spec, work, "1.0.0").folder
    section = _statistics((folder / "README.md").read_text(encoding="utf-8"))
    assert "computed on other samples than the released ones" in section
    assert "| subsets.S.uniformity | 0.5 |" in section  # generic table without stats.md


def test_stats_with_changed_input_hash_are_marked_stale(demo_spec: Spec, work: Path) -> None:
    annotate_all(work, demo_spec)
    stats = work / "stats"
    stats.mkdir()
    counts = {"S": 12, "M": 8, "L": 6}
    hashes = {name: sha256_file(work / "samples" / f"{name}.parquet") for name in counts}
    report = {"subsets": {n: {"n": c} for n, c in counts.items()}, "inputs": hashes}
    (stats / "stats.json").write_text(json.dumps(report))
    folder = build_release(demo_spec, work, "1.0.0").folder
    assert "computed on other samples" not in (folder / "README.md").read_text(encoding="utf-8")

    rows = read_rows(work / "samples" / "M.parquet")
    rows[0]["summary"] = "A summary revised after the statistics (test fixture)."
    write_rows(work / "samples" / "M.parquet", rows)
    folder = build_release(demo_spec, work, "1.0.1").folder
    assert "computed on other samples" in (folder / "README.md").read_text(encoding="utf-8")
