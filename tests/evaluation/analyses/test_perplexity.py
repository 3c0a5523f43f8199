"""Perplexity ranking for ordering items: a known scorer, then the tiny local model."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from lengthwise.cli import main
from lengthwise.evaluation.analyses import perplexity
from lengthwise.evaluation.analyses.run_data import load_analysed_runs
from lengthwise.storage import read_json
from tests.evaluation.analyses.handmade import Rows, context_sentences, plot_has_content, write_run

SHUFFLE = [2, 0, 3, 1]  # the order segments are shown in


def _ordering_run(
    folder: Path, release: Path, rows: Rows, prompts: tuple[str, ...] = ("IB",)
) -> Path:
    def fields(row: dict[str, Any]) -> dict[str, Any]:
        story = context_sentences(row, 0, 1)[1:5]  # four consecutive sentences
        shown = [story[i] for i in SHUFFLE]
        gold = [SHUFFLE.index(i) for i in range(4)]  # shown indices in story order
        return {"task": "ordering", "family": "ordering", "segments": shown, "gold_order": gold}

    # The generative model answers half the items right.
    right = {str(r["id"]) for subset_rows in rows.values() for r in subset_rows[::2]}
    return write_run(
        folder,
        release,
        rows,
        lambda row: "0 1 2 3",
        score=lambda row, _: float(str(row["id"]) in right),
        extra=fields,
        prompts=prompts,
    )


def test_a_scorer_that_knows_the_story_ranks_the_true_order_first(
    tiny_release: Path, release_rows: Rows, tmp_path: Path
) -> None:
    run = _ordering_run(tmp_path / "run", tiny_release, release_rows)
    stories = {
        "\n".join(context_sentences(r, 0, 1)[1:5]) for rows in release_rows.values() for r in rows
    }

    def knows(text: str) -> float:
        return 0.0 if text in stories else -10.0

    output = perplexity.analyse(load_analysed_runs([run]), tmp_path, scorer=knows, model_name="k")
    s = output.table["runs"]["handmade (handmade)"]["S"]
    assert s["n"] == 4 and s["perplexity_accuracy"] == 100.0 and s["mean_gold_rank"] == 1.0
    assert s["generative_accuracy"] == 50.0
    # Chance: a random ranking puts the true order first once in its 4! = 24 candidates.
    assert s["candidates"] == 24 and s["chance"] == pytest.approx(100 / 24)
    assert perplexity.candidate_orders(4, (0, 1, 2, 3), None, 24, 0)[0] == (0, 1, 2, 3)
    assert len(perplexity.candidate_orders(4, (0, 1, 2, 3), None, 24, 0)) == 24
    assert len(perplexity.candidate_orders(9, tuple(range(9)), None, 24, 0)) == 24


@pytest.mark.slow
def test_the_tiny_model_ranks_orders_by_log_likelihood(
    tiny_release: Path, release_rows: Rows, tiny_model_dir: Path, tmp_path: Path
) -> None:
    scorer = perplexity.transformers_scorer(tiny_model_dir)
    first, second = scorer("The ferry left at dawn."), scorer("dawn. at left ferry The")
    assert math.isfinite(first) and first < 0 and first != second
    run = _ordering_run(tmp_path / "run", tiny_release, release_rows)
    out = tmp_path / "out"
    args = ["analyse", "perplexity", str(run), "--model", str(tiny_model_dir), "--out", str(out)]
    assert main(args) == 0
    table = read_json(out / "perplexity.json")
    s = table["runs"]["handmade (handmade)"]["S"]
    assert s["n"] == 4 and 1 <= s["mean_gold_rank"] <= 24
    plot_has_content(out / "perplexity_accuracy.png")


def test_each_candidate_text_is_scored_once_with_progress(
    tiny_release: Path, release_rows: Rows, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The same items under IB and IE: their candidate orders are the same texts.
    run = _ordering_run(tmp_path / "run", tiny_release, release_rows, prompts=("IB", "IE"))
    asked: list[str] = []

    def counting(text: str) -> float:
        asked.append(text)
        return -float(len(text))

    capsys.readouterr()
    perplexity.analyse(load_analysed_runs([run]), tmp_path, scorer=counting, model_name="c")
    items = sum(len(rows) for rows in release_rows.values())
    assert len(asked) == len(set(asked)) == 24 * items  # not 2 x 24 per item
    progress = [line for line in capsys.readouterr().err.splitlines() if "perplexity:" in line]
    assert len(progress) == 2 * items and "left" in progress[-1]
    assert progress[-1].startswith(f"perplexity: {2 * items}/{2 * items} items")
