"""`lengthwise stats` on the demo build: before and after annotation, with a judge."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from lengthwise.cli import main
from lengthwise.llm.types import ChatResult
from lengthwise.releases.stats.report import JudgeSetup, run_stats
from lengthwise.spec import load_spec
from lengthwise.storage import atomic_write_parquet
from lengthwise.text import sentences
from tests.releases.stats.scripted_judge import ScriptedJudge


def _always(verdict: int) -> ScriptedJudge:
    """A judge giving `verdict` to every chunk, in the final-line form its prompt asks for."""

    def answer(prompt: str) -> ChatResult:
        final = "最终得分：{}" if "最终得分" in prompt else "Final score: {}"
        return ChatResult(text="Reasoning.\n" + final.format(verdict), outcome="ok")

    return ScriptedJudge(answer, name=f"scripted:always-{verdict}")


def test_before_annotation_summary_figures_are_absent_not_zero(
    stats_demo_build: tuple[Path, Path], stats_work: Path
) -> None:
    spec = load_spec(stats_demo_build[0])
    result = run_stats(spec, stats_work, workers=1)
    assert not result.up_to_date
    data = json.loads(result.paths.json.read_text(encoding="utf-8"))
    assert list(data["subsets"]) == ["S", "M", "L"]
    for name, subset in data["subsets"].items():
        assert subset["n"] > 0
        assert subset["summaries"] == {
            "status": "absent",
            "reason": "no reference summaries yet (annotation pending)",
        }
        assert subset["annotation"]["status"] == "absent"
        assert subset["information_coverage"] == {
            "computed": False,
            "reason": "no judge model configured ([llm.judge] in the spec)",
        }
        assert {row["subset"] for row in subset["length_table"]} == {name}
        assert {row["tokenizer"] for row in subset["length_table"]} >= {"qwen2.5"}
    markdown = result.paths.markdown.read_text(encoding="utf-8")
    assert "absent (no reference summaries yet" in markdown
    assert "not computed" in markdown and "| S | `qwen2.5` |" in markdown
    before = result.paths.json.read_bytes()
    again = run_stats(spec, stats_work, workers=1)
    assert again.up_to_date and result.paths.json.read_bytes() == before


def _annotate(work: Path, subset: str, summaries: dict[str, str]) -> list[dict[str, Any]]:
    rows = pq.read_table(work / "samples" / f"{subset}.parquet").to_pylist()
    for index, row in enumerate(rows):
        row["summary"] = summaries.get(row["id"])
        row["agreement"] = 0.5 + 0.1 * (index % 2) if row["summary"] else None
        row["copied_share"] = 0.25 if row["summary"] else None
        row["summary_source"] = "annotator" if row["summary"] else None
        row["annotation_count"] = 2 if row["summary"] else 0
    atomic_write_parquet(work / "samples_annotated" / f"{subset}.parquet", rows)
    return rows


def test_after_annotation_every_summary_statistic_is_reported(
    stats_demo_build: tuple[Path, Path], stats_work: Path
) -> None:
    spec = load_spec(stats_demo_build[0])
    rows = pq.read_table(stats_work / "samples" / "S.parquet").to_pylist()
    # Copied summaries: the first three sentences of the text (coverage 1, no novel words);
    # one sample keeps no summary.
    summaries = {
        row["id"]: ("" if row["language"] == "zh" else " ").join(
            sentences(row["text"], row["language"])[1:4]
        )
        for row in rows[1:]
    }
    _annotate(stats_work, "S", summaries)
    result = run_stats(spec, stats_work, workers=2)
    s = result.report.to_json()["subsets"]["S"]
    assert s["summaries"]["status"] == "present"
    assert s["summaries"]["n"] == len(rows) - 1
    assert s["summaries"]["without_summary"] == 1
    metrics = s["summaries"]["metrics"]
    assert metrics["coverage"]["mean"] == pytest.approx(1.0)
    assert metrics["novel_1gram"]["mean"] == pytest.approx(0.0)
    assert metrics["compression_tokens"]["min"] > 1.0
    assert 0.0 <= metrics["uniformity"]["mean"] <= 1.0
    assert 0.0 <= metrics["redundancy"]["mean"] <= 1.0
    assert metrics["compression_sentences"]["median"] > 1.0
    assert s["annotation"]["status"] == "present"
    assert s["annotation"]["agreement_rouge_l"]["n"] == len(rows) - 1
    assert s["annotation"]["rewritten_share"]["mean"] == pytest.approx(0.75)
    assert s["annotation"]["summary_sources"] == {"annotator": len(rows) - 1}
    # Subsets not annotated stay absent.
    assert result.report.to_json()["subsets"]["M"]["summaries"]["status"] == "absent"
    per_sample = [json.loads(line) for line in result.paths.samples.read_text().splitlines()]
    assert {r["id"] for r in per_sample} == set(summaries)
    assert all(r["coverage"] == pytest.approx(1.0) for r in per_sample)
    markdown = result.paths.markdown.read_text(encoding="utf-8")
    assert "| Extractive coverage | 1.000 (1.000) |" in markdown
    # The same numbers with one worker (no processes): parallelism changes nothing.
    single = run_stats(spec, stats_work, workers=1, force=True)
    assert single.report.to_json()["subsets"]["S"]["summaries"] == s["summaries"]


def test_ic_with_an_injected_judge_on_a_seeded_sample(
    stats_demo_build: tuple[Path, Path], stats_work: Path
) -> None:
    spec = load_spec(stats_demo_build[0])
    judge = _always(1)
    result = run_stats(spec, stats_work, judge=JudgeSetup(judge), ic_samples=2, workers=1)
    for subset in result.report.to_json()["subsets"].values():
        ic = subset["information_coverage"]
        assert ic["computed"] and ic["samples"] == 2 and ic["judge"] == "scripted:always-1"
        assert ic["mean"] == 1.0 and ic["ci95"] == [1.0, 1.0]
    calls = len(judge.requests)
    assert calls == sum(
        s["information_coverage"]["chunks"] for s in result.report.to_json()["subsets"].values()
    )
    # Another judge is another fingerprint: recomputed, not "up to date".
    other = run_stats(spec, stats_work, judge=JudgeSetup(_always(0)), ic_samples=2, workers=1)
    assert not other.up_to_date
    assert other.report.to_json()["subsets"]["S"]["information_coverage"]["mean"] == 0.0


def test_cli_stats_and_its_errors(
    stats_demo_build: tuple[Path, Path], stats_work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec_path = str(stats_demo_build[0])
    assert main(["stats", spec_path, "--work", str(stats_work)]) == 0
    out = capsys.readouterr().out
    assert "S: 12 samples, IC not computed, summaries absent" in out
    assert (stats_work / "stats" / "stats.json").is_file()
    assert main(["stats", spec_path, "--work", str(stats_work), "--ic-samples", "0"]) == 2
    assert "--ic-samples must be at least 1" in capsys.readouterr().err
    empty = stats_work.parent / "empty"
    assert main(["stats", spec_path, "--work", str(empty)]) == 2
    assert "run `lengthwise build SPEC.toml` before `lengthwise stats`" in capsys.readouterr().err
