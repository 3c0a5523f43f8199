"""Baselines beside a model as a researcher reads them: run once (their answers do not
depend on the prompt), the random guess equal to the random-3 run on the same samples,
and an unannotated release said "not scored" in the terminal, the report and the viewer."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from lengthwise.cli import main
from lengthwise.releases.release.manifest import file_entries
from lengthwise.storage import read_json, read_jsonl
from tests.evaluation.scripted_answers import Rows, answer_for
from tests.fixtures.scripted_openai import ScriptedOpenAIServer

NOT_SCORED = "not scored: no reference summaries"


def _baseline(release: Path, name: str, out: Path) -> None:
    args = ["eval", "--release", str(release), "--backend", "baseline", "--model", name]
    assert main([*args, "--prompts", "IB,IE", "--out", str(out)]) == 0


def test_a_baseline_runs_once_and_its_random_guess_is_the_random_3_run(
    tiny_release: Path, release_rows: Rows, tmp_path: Path
) -> None:
    random3 = tmp_path / "random-3"
    _baseline(tiny_release, "random-3", random3)
    lines = list(read_jsonl(random3 / "generations.jsonl"))
    assert len(lines) == 8 and {line["prompt_id"] for line in lines} == {"IB"}  # 4 x S, M
    with ScriptedOpenAIServer(answer_for(release_rows)) as server:
        args = ["eval", "--release", str(tiny_release), "--model", "m", "--backend", "openai"]
        args += ["--base-url", server.base_url, "--tokenizer", "qwen2.5"]
        assert main([*args, "--out", str(tmp_path / "model")]) == 0
    model = read_json(tmp_path / "model" / "results.json")
    baseline = read_json(random3 / "results.json")
    for subset in ("S", "M"):
        for prompt in ("IB", "IE"):
            guess = model["tasks"]["summarization"]["lengths"][subset][prompt]["random_baseline"]
            assert guess == pytest.approx(baseline["results"][subset]["IB"]["mean"], abs=1e-9)

    out = tmp_path / "report"
    assert main(["report", str(tmp_path / "model"), str(random3), "--out", str(out)]) == 0
    report = (out / "report.md").read_text(encoding="utf-8")
    ie_table = report.split("### Prompt IE", 1)[1].split("\n\n", 2)[1]
    row = next(line for line in ie_table.splitlines() if line.startswith("| S |"))
    baseline_cell = row.strip("|").split("|")[2].strip()
    expected = baseline["results"]["S"]["IB"]
    assert baseline_cell.startswith(f"{expected['mean']:.2f} [")  # shown under IE as well
    assert "do not depend on the prompt: run once" in report


def _unannotated(tiny_release: Path, folder: Path) -> Path:
    shutil.copytree(tiny_release, folder)
    for parquet in folder.glob("*/test-*.parquet"):
        table = pq.read_table(parquet)
        rows = [{**row, "summary": ""} for row in table.to_pylist()]
        pq.write_table(pa.Table.from_pylist(rows, schema=table.schema), parquet)
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    manifest["files"] = file_entries(folder)
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return folder


def test_an_unannotated_release_says_not_scored_everywhere(
    tiny_release: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    release = _unannotated(tiny_release, tmp_path / "release")
    capsys.readouterr()
    _baseline(release, "lead-3", tmp_path / "lead-3")
    printed = capsys.readouterr().out
    assert f"S IB: {NOT_SCORED}" in printed and f"M IB: {NOT_SCORED}" in printed
    out = tmp_path / "report"
    assert main(["report", "--html", str(tmp_path / "lead-3"), "--out", str(out)]) == 0
    report = (out / "report.md").read_text(encoding="utf-8")
    assert f"| S | {NOT_SCORED} (planned 4) |" in report
    assert NOT_SCORED in (out / "report.html").read_text(encoding="utf-8")
