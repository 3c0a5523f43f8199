"""Baselines through the evaluator: scored like models, deterministic, cached, marked."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from lengthwise.cli import main
from lengthwise.evaluation.baselines import (
    BaselineClient,
    baseline_sentences,
    cap_tokens,
    parse_baseline,
)
from lengthwise.evaluation.metrics import rouge_l
from lengthwise.evaluation.runner import EvalConfig, run_eval
from lengthwise.evaluation.samples import EvalSample
from lengthwise.llm.types import ChatRequest, Message
from lengthwise.releases.release.manifest import file_entries
from lengthwise.text.segment import sentences


def _request(sample_id: str, max_tokens: int = 400) -> ChatRequest:
    return ChatRequest(
        messages=(Message("user", "summarise"),),
        max_tokens=max_tokens,
        metadata=(("sample", sample_id),),
    )


def _count(text: str) -> int:
    return len(text.split()) + sum(1 for ch in text if "\u4e00" <= ch <= "\u9fff")


@pytest.mark.parametrize(
    ("language", "context"),
    [
        ("en", "Ada found the key. Bram lost the map.\n\nCelia sold the lamp."),
        ("zh", "林清在渡口找到了钥匙。赵远丢失了地图。\n苏婉卖掉了银灯。"),
    ],
)
def test_a_baseline_returning_the_reference_scores_100_and_an_empty_one_0(
    language: str, context: str
) -> None:
    reference = ("" if language == "zh" else " ").join(sentences(context, language))
    sample = EvalSample("s1", "S", language, context, reference, 100)
    client = BaselineClient(parse_baseline("lead-10"), {"s1": sample}, _count, seed=0)
    answer = client.complete(_request("s1")).text
    assert answer == reference
    assert rouge_l(answer, reference, language) * 100 == pytest.approx(100.0)

    wordless = EvalSample("s2", "S", language, "…… —— ！", reference, 100)
    empty = BaselineClient(parse_baseline("lead-3"), {"s2": wordless}, _count, seed=0)
    assert empty.complete(_request("s2")).text == ""
    assert rouge_l("", reference, language) == 0.0


def test_lead_and_random_pick_sentences_with_the_projects_splitter() -> None:
    context = " ".join(f"Person {i} found thing {i}." for i in range(1, 21))
    sample = EvalSample("x", "S", "en", context, "ref", 100)
    assert baseline_sentences(parse_baseline("lead-2"), sample, 0) == [
        "Person 1 found thing 1.",
        "Person 2 found thing 2.",
    ]
    drawn = baseline_sentences(parse_baseline("random-4"), sample, 7)
    assert drawn == baseline_sentences(parse_baseline("random-4"), sample, 7)  # same seed
    assert len(drawn) == 4 and drawn == sorted(drawn, key=context.index)  # context order
    others = [baseline_sentences(parse_baseline("random-4"), sample, s) for s in range(1, 6)]
    assert any(o != drawn for o in others)  # the seed matters


def test_answers_are_capped_at_max_new_tokens_like_model_outputs() -> None:
    parts = ["one two three.", "four five six.", "seven eight nine."]
    assert cap_tokens(parts, "en", 9, _count) == (" ".join(parts), False)
    assert cap_tokens(parts, "en", 6, _count) == ("one two three. four five six.", True)
    text, capped = cap_tokens(parts, "en", 7, _count)
    assert capped and _count(text) <= 7 and text.startswith("one two three. four five six.")
    sample = EvalSample("x", "S", "en", " ".join(parts), "ref", 100)
    client = BaselineClient(parse_baseline("lead-3"), {"x": sample}, _count, seed=0)
    result = client.complete(_request("x", max_tokens=4))
    assert result.outcome == "length" and _count(result.text) <= 4


@pytest.mark.parametrize("name", ["lead", "lead-0", "random-x", "draft", "tail-3", "lead-1000"])
def test_bad_baseline_names_say_what_is_valid(name: str) -> None:
    with pytest.raises(ValueError, match="lead-N"):
        parse_baseline(name)


def _lead_release(tiny_release: Path, tmp_path: Path) -> Path:
    """A copy of the release whose references are the first two sentences of the context."""
    folder = tmp_path / "release"
    shutil.copytree(tiny_release, folder)
    for parquet in folder.glob("*/test-*.parquet"):
        table = pq.read_table(parquet)
        rows = table.to_pylist()
        for row in rows:
            joiner = "" if row["language"] == "zh" else " "
            row["summary"] = joiner.join(sentences(row["context"], row["language"])[:2])
        pq.write_table(pa.Table.from_pylist(rows, schema=table.schema), parquet)
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    manifest["files"] = file_entries(folder)  # re-checksum the edited parquet files
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return folder


def _config(release: Path, model: str, out: Path, seed: int = 0) -> EvalConfig:
    return EvalConfig(
        release=str(release),
        model=model,
        backend="baseline",
        out=out,
        prompts=["IB"],
        seed=seed,
        bootstrap_resamples=50,
    )


def test_lead_baseline_scores_100_through_the_runner_when_the_reference_is_its_lead(
    tiny_release: Path, tmp_path: Path
) -> None:
    release = _lead_release(tiny_release, tmp_path)
    run = run_eval(_config(release, "lead-2", tmp_path / "lead-2"))
    for subset in ("S", "M"):
        entry = run.results["results"][subset]["IB"]
        assert entry["n"] == 4 and entry["mean"] == pytest.approx(100.0)
    assert run.results["model"]["backend"] == "baseline"
    assert "first 2 sentences" in run.results["model"]["baseline"]


def test_baselines_are_deterministic_cached_and_marked_in_the_report(
    tiny_release: Path, tmp_path: Path
) -> None:
    first = run_eval(_config(tiny_release, "random-2", tmp_path / "a", seed=3))
    same = run_eval(_config(tiny_release, "random-2", tmp_path / "b", seed=3))
    other = run_eval(_config(tiny_release, "random-2", tmp_path / "c", seed=4))

    def answers(folder: Path) -> dict[str, str]:
        lines = (folder / "generations.jsonl").read_text(encoding="utf-8").splitlines()
        return {json.loads(x)["sample_id"]: json.loads(x)["prediction"] for x in lines}

    assert answers(first.out) == answers(same.out)
    assert answers(first.out) != answers(other.out)
    assert first.generated == 8 and all(
        e["mean"] > 0 for by in first.results["results"].values() for e in by.values()
    )
    again = run_eval(_config(tiny_release, "random-2", tmp_path / "a", seed=3))
    assert (again.generated, again.reused) == (0, 8)  # nothing regenerated
    (first.out / "generations.jsonl").unlink()  # the request cache still has every answer
    cached = run_eval(_config(tiny_release, "random-2", tmp_path / "a", seed=3))
    lines = [json.loads(x) for x in (first.out / "generations.jsonl").read_text().splitlines()]
    assert cached.generated == 8 and all(line["cached"] for line in lines)
    assert answers(first.out) == answers(same.out)

    report = (first.out / "report.md").read_text(encoding="utf-8")
    assert "random-2 (baseline)" in report
    assert "Baselines (reference points, not models" in report
    assert "seeded random sentences" in report


def test_drafts_baseline_without_drafts_and_model_backends_without_extras_fail_in_one_line(
    tiny_release: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "drafts"
    argv = ["eval", "--release", str(tiny_release), "--backend", "baseline", "--out", str(out)]
    assert main([*argv, "--model", "drafts"]) == 2
    error = capsys.readouterr().err.strip()
    assert "chapter_drafts" in error and len(error.splitlines()) == 1
    assert not (out / "run.json").exists()
    assert main([*argv, "--model", "lead-x"]) == 2
    assert "lead-N" in capsys.readouterr().err
