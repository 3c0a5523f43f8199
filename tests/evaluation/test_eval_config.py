"""The evaluator's config: validated like a spec, loadable from an [eval] table, CLI over it."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from lengthwise.cli import main
from lengthwise.errors import SpecError
from lengthwise.evaluation.backends import EngineSettings
from lengthwise.evaluation.config import EvalConfig, make_config
from lengthwise.storage import atomic_write_text, read_json
from tests.evaluation.scripted_answers import Rows, answer_for
from tests.fixtures.scripted_openai import ScriptedOpenAIServer


def _table(release: Path, base_url: str, out: Path, extra: str = "") -> str:
    return f"""
[eval]
release = "{release}"
subsets = ["S"]
prompts = ["IB"]
tokenizer = "qwen2.5"
seed = 1
out = "{out}"
write_report = false
{extra}
[eval.engine]
backend = "openai"
model = "scripted-model"
base_url = "{base_url}"
concurrency = 2
"""


def test_config_file_runs_and_command_line_options_override_it(
    tiny_release: Path, release_rows: Rows, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    with ScriptedOpenAIServer(answer_for(release_rows)) as server:
        path = tmp_path / "eval.toml"
        atomic_write_text(path, _table(tiny_release, server.base_url, out))
        assert main(["eval", "--config", str(path), "--seed", "3", "--prompts", "IE"]) == 0
    results = read_json(out / "results.json")
    assert results["seeds"]["generation"] == 3  # the command line wins over seed = 1
    assert list(results["results"]["S"]) == ["IE"]
    assert results["model"]["engine"]["concurrency"] == 2  # engine table kept
    assert results["plan"]["tokenizer"] == "qwen2.5"


def test_unknown_keys_are_named(
    tiny_release: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "eval.toml"
    table = _table(tiny_release, "http://127.0.0.1:9/v1", tmp_path / "o", "bootstrap_seeds = 2")
    atomic_write_text(path, table.replace("concurrency = 2", "concurency = 2"))
    assert main(["eval", "--config", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path} [eval]" in err
    assert "bootstrap_seeds: unknown key" in err and "engine.concurency: unknown key" in err
    with pytest.raises(SpecError, match="command line: release: Field required"):
        make_config({"engine": {"backend": "openai", "model": "m"}, "out": "o"}, "command line")
    assert main(["eval", "--backend", "openai", "--model", "m", "--out", str(tmp_path)]) == 2
    assert "release: Field required" in capsys.readouterr().err


def test_engine_settings_live_in_the_engine_only(tmp_path: Path) -> None:
    engine = EngineSettings(backend="openai", model="m", base_url="http://x/v1")
    config = EvalConfig(release="r", out=tmp_path, engine=engine, model="m", backend="openai")
    assert (config.model, config.backend, config.engine) == ("m", "openai", engine)
    short = EvalConfig(release="r", out=tmp_path, model="m2", backend="transformers")
    assert short.engine == EngineSettings(backend="transformers", model="m2")
    with pytest.raises(ValidationError, match="model differ from the engine"):
        EvalConfig(release="r", out=tmp_path, engine=engine, model="other")
    with pytest.raises(ValidationError, match="top_p"):
        EvalConfig(release="r", out=tmp_path, engine=engine, top_p=0)
    with pytest.raises(ValidationError, match="policy"):
        EvalConfig(release="r", out=tmp_path, engine=engine, policy="cut")  # type: ignore[arg-type]
    assert "model" not in EvalConfig.model_fields and "backend" not in EvalConfig.model_fields
