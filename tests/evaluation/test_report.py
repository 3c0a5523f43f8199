"""`lengthwise report`: two runs side by side, markdown and valid PNG plots."""

from __future__ import annotations

from pathlib import Path

import pytest

from lengthwise.cli import main
from lengthwise.storage import read_json
from tests.evaluation.scripted_answers import Rows, always_reference, answer_for
from tests.fixtures.scripted_openai import ScriptedOpenAIServer

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _run(release: Path, rows: Rows, out: Path, script: object) -> None:
    with ScriptedOpenAIServer(script) as server:  # type: ignore[arg-type]
        code = main(
            [
                "eval",
                "--release",
                str(release),
                "--model",
                "scripted-model",
                "--backend",
                "openai",
                "--base-url",
                server.base_url,
                "--tokenizer",
                "qwen2.5",
                "--out",
                str(out),
            ]
        )
    assert code == 0


def _assert_png(path: Path) -> None:
    import matplotlib.image

    assert path.read_bytes()[:8] == PNG_SIGNATURE
    image = matplotlib.image.imread(path)
    assert image.shape[0] > 100 and image.shape[1] > 100


def test_report_compares_runs(
    tiny_release: Path, release_rows: Rows, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mixed, perfect = tmp_path / "mixed", tmp_path / "perfect"
    _run(tiny_release, release_rows, mixed, answer_for(release_rows))
    _run(tiny_release, release_rows, perfect, always_reference(release_rows))
    # Each eval writes its own report too.
    assert (mixed / "report.md").is_file()
    _assert_png(mixed / "scores_by_length.png")

    out = tmp_path / "comparison"
    capsys.readouterr()
    assert main(["report", str(mixed), str(perfect), "--out", str(out)]) == 0
    assert capsys.readouterr().out.strip().endswith("report.md")
    text = (out / "report.md").read_text(encoding="utf-8")
    for name in ("scores_by_length.png", "outcome_shares.png"):
        _assert_png(out / name)
        assert f"]({name})" in text
    # Both runs are labelled apart, although they used the same model name.
    assert "scripted-model (openai) [mixed]" in text and "scripted-model (openai) [perfect]" in text
    assert "## Paired per-sample comparison" in text
    perfect_s = read_json(perfect / "results.json")["results"]["S"]["IB"]
    assert perfect_s["mean"] == pytest.approx(100.0)
    assert "100.00 [100.00, 100.00] (n=4)" in text
    # The perfect run wins on every S sample the mixed run did not already get right.
    assert "| scripted-model (openai) [perfect] | S | IB | 4 |" in text
    assert "3/0/1" in text
    assert "MSD" in text and "blocked" in text


def test_report_on_a_folder_without_results_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", str(tmp_path), "--out", str(tmp_path / "r")]) == 2
    assert "no results" in capsys.readouterr().err
