"""Every analysis on real run folders: the tiny random model's answers (CPU, slow).

The random model answers nonsense, so the numbers are not checked for meaning: each
command must run on what `lengthwise eval` wrote, account for every answer (traced, or
counted as untraceable) and draw its plots.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lengthwise.cli import main
from lengthwise.evaluation.backends import EngineSettings
from lengthwise.evaluation.runner import EvalConfig, run_eval
from lengthwise.storage import read_json

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def tiny_runs(
    tiny_release: Path, tiny_model_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("tiny-runs")
    runs = {}
    for name, window in (("full", 2400), ("cut", 700)):
        config = EvalConfig(
            release=str(tiny_release),
            model=str(tiny_model_dir),
            backend="transformers",
            out=root / name,
            limit=2,
            context_window=window,
            default_max_new_tokens=12,
            write_report=False,
            engine=EngineSettings(backend="transformers", model=str(tiny_model_dir), device="cpu"),
        )
        run_eval(config)
        runs[name] = config.out
    return runs


def test_every_analysis_runs_on_tiny_model_outputs(
    tiny_runs: dict[str, Path], tiny_model_dir: Path, tmp_path: Path
) -> None:
    full, cut = str(tiny_runs["full"]), str(tiny_runs["cut"])
    commands = {
        "traceability": ["traceability", full],
        "truncation": ["truncation", full, cut],
        "position_bias": ["position-bias", full],
        "prompt_sensitivity": ["prompt-sensitivity", full],
        "atomic_facts": [
            "atomic-facts",
            full,
            "--backend",
            "transformers",
            "--model",
            str(tiny_model_dir),
        ],
    }
    # A full and a truncated run are no permutations of one another: medoid refuses.
    assert main(["analyse", "medoid", full, cut, "--out", str(tmp_path / "medoid")]) == 2
    for name, args in commands.items():
        out = tmp_path / name
        assert main(["analyse", *args, "--out", str(out)]) == 0, name
        table = read_json(out / f"{name}.json")
        assert table["analysis"] == name
        for plot in table["plots"]:
            assert (out / plot).read_bytes()[:4] == b"\x89PNG", plot
    trace = read_json(tmp_path / "traceability" / "traceability.json")
    by_subset = trace["methods"]["tfidf"][
        "tiny-qwen2" if False else next(iter(trace["methods"]["tfidf"]))
    ]
    # 2 samples x 2 subsets x 2 prompts answered: each is traced or counted as not traced.
    traced = sum(
        d["samples"]
        for s in by_subset["subsets"].values()
        for p, d in s.items()
        if p != "reference"
    )
    assert traced == 8
    fractions = read_json(tmp_path / "truncation" / "truncation.json")["fractions"]
    full_fraction, cut_fraction = fractions.values()
    assert full_fraction == 1.0 and cut_fraction < 1.0
