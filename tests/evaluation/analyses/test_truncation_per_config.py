"""Truncation measured per config: one context window cuts each config differently.

A run with `--context-window N --policy truncate-middle` keeps most of a short
config's prompts and little of a long one's; the analysis compares each config at the
share its own prompts kept, not at one mean over the run (which judged a config at
44 % kept when 53 % was).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from lengthwise.cli import main
from lengthwise.storage import read_json
from tests.evaluation.analyses.handmade import Rows, write_run

KEPT = {"S": 0.81, "M": 0.09}  # the share of its prompt tokens each config kept


def _cut(row: dict[str, Any]) -> dict[str, Any]:
    original = 1000
    return {
        "original_prompt_tokens": original,
        "prompt_tokens": round(KEPT[str(row["subset"])] * original),
        "truncation": {"tokens_cut": round((1 - KEPT[str(row["subset"])]) * original)},
    }


def test_each_config_is_compared_at_its_own_kept_share(
    tiny_release: Path, release_rows: Rows, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A model that needs nothing beyond the kept text: its score does not move at all.
    def flat(row: dict[str, Any], prediction: str) -> float:
        return 0.4

    full = write_run(tmp_path / "full", tiny_release, release_rows, lambda r: "x", score=flat)
    cut = write_run(
        tmp_path / "cut", tiny_release, release_rows, lambda r: "x", score=flat, extra=_cut
    )
    out = tmp_path / "out"
    capsys.readouterr()
    assert main(["analyse", "truncation", str(full), str(cut), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    table = read_json(out / "truncation.json")
    for subset, kept in KEPT.items():
        entry = table["tasks"]["summarization"][subset]
        assert [row["fraction"] for row in entry["rows"]] == [1.0, kept]
        assert entry["n"] == 4
    # M lost 91 % of its context and nothing moved: flagged. S lost 19 %: no verdict.
    assert table["tasks"]["summarization"]["M"]["insensitive"] is True
    assert table["tasks"]["summarization"]["S"]["insensitive"] is False
    assert "RELEASE CHECK summarization M" in printed
    assert "RELEASE CHECK summarization S" not in printed
    assert table["subset_fractions"]["handmade (handmade) [cut]"] == KEPT


def test_runs_that_cut_nothing_are_refused_in_one_line(
    tiny_release: Path, release_rows: Rows, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    one = write_run(tmp_path / "a", tiny_release, release_rows, lambda r: "x")
    two = write_run(tmp_path / "b", tiny_release, release_rows, lambda r: "x")
    assert main(["analyse", "truncation", str(one), str(two), "--out", str(tmp_path / "o")]) == 2
    error = capsys.readouterr().err.strip()
    assert "two context fractions" in error and len(error.splitlines()) == 1
    assert not (tmp_path / "o" / "truncation.json").exists()
