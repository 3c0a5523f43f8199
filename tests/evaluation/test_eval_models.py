"""End to end with a real (tiny, random) model: local transformers and `transformers serve`.

A random model answers with newlines, so scores are 0 here: these tests check the
plumbing a user relies on (counts that match the backend's, truncation, resume without
regeneration, identical results), not quality. The scripted-server tests check scores.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lengthwise.cli import main
from lengthwise.evaluation.backends import EngineSettings
from lengthwise.evaluation.runner import EvalConfig, run_eval
from lengthwise.evaluation.store import GENERATIONS
from lengthwise.llm.transformers_backend import TransformersClient
from lengthwise.spec import LLMRoleConfig
from lengthwise.storage import read_json, read_jsonl

pytestmark = pytest.mark.slow


class Stop(KeyboardInterrupt):
    """Raised from the per-result callback: a user pressing Ctrl-C mid-run."""


def _stop_after(count: int) -> Any:
    seen: list[dict[str, Any]] = []

    def observer(line: dict[str, Any]) -> None:
        seen.append(line)
        if len(seen) == count:
            raise Stop

    return observer


@pytest.fixture(scope="module")
def loaded_tiny_model(tiny_model_dir: Path) -> Iterator[TransformersClient]:
    """Holds the tiny model in memory for the module: the backend shares one loaded copy per
    (folder, device) while any client lives, so each run does not load it again."""
    client = TransformersClient(
        LLMRoleConfig(backend="transformers", model=str(tiny_model_dir)), device="cpu"
    )
    client._load()
    yield client


@pytest.fixture
def generate_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every generation the local model runs (prompts' last characters), in order."""
    calls: list[str] = []
    original = TransformersClient._generate

    def counting(self: TransformersClient, loaded: Any, request: Any) -> Any:
        calls.append(request.messages[-1].content[-20:])
        return original(self, loaded, request)

    monkeypatch.setattr(TransformersClient, "_generate", counting)
    return calls


def _local_config(release: Path, model: Path, out: Path, **engine: Any) -> EvalConfig:
    return EvalConfig(
        release=str(release),
        model=str(model),
        backend="transformers",
        out=out,
        limit=1,
        context_window=1000,
        default_max_new_tokens=6,
        write_report=False,
        engine=EngineSettings(backend="transformers", model=str(model), device="cpu", **engine),
    )


def test_transformers_backend_counts_truncates_and_resumes(
    tiny_release: Path,
    loaded_tiny_model: TransformersClient,
    tmp_path: Path,
    generate_calls: list[str],
) -> None:
    tiny_model_dir = loaded_tiny_model.folder
    full = run_eval(_local_config(tiny_release, tiny_model_dir, tmp_path / "full"))
    total = len(full.results["plan"]["subsets"]) * 2  # subsets x prompts x 1 sample
    assert len(generate_calls) == full.generated == total
    lines = list(read_jsonl(tmp_path / "full" / GENERATIONS))
    assert len(lines) == total
    for line in lines:
        # The plan counted exactly what the backend then fed the model.
        assert line["usage"]["prompt_tokens"] == line["prompt_tokens"]
        assert line["prompt_tokens"] <= 1000 - 6
        assert line["outcome"] in ("empty", "ok", "degenerate")
    truncated = [line for line in lines if line["truncation"]]
    assert truncated and all(line["subset"] == "M" for line in truncated)

    generate_calls.clear()
    resumed_dir = tmp_path / "resumed"
    with pytest.raises(Stop):
        run_eval(_local_config(tiny_release, tiny_model_dir, resumed_dir), observer=_stop_after(2))
    assert len(generate_calls) == 2
    generate_calls.clear()
    resumed = run_eval(_local_config(tiny_release, tiny_model_dir, resumed_dir))
    assert len(generate_calls) == total - 2  # finished samples were not generated again
    assert resumed.reused == 2
    assert resumed.results["results"] == full.results["results"]
    assert resumed.results["plan"] == full.results["plan"]
    predictions = {
        (x["sample_id"], x["prompt_id"]): x["prediction"]
        for x in read_jsonl(resumed_dir / GENERATIONS)
    }
    assert predictions == {(x["sample_id"], x["prompt_id"]): x["prediction"] for x in lines}


def test_chat_template_off_sends_the_plain_prompt(
    tiny_release: Path,
    loaded_tiny_model: TransformersClient,
    tmp_path: Path,
    generate_calls: list[str],
) -> None:
    tiny_model_dir = loaded_tiny_model.folder

    def run(chat: bool) -> dict[str, Any]:
        config = _local_config(
            tiny_release, tiny_model_dir, tmp_path / f"chat-{chat}", chat_template=chat
        )
        config.subsets, config.prompts, config.limit = ["S"], ["IB"], 1
        run_eval(config)
        return next(iter(read_jsonl(config.out / GENERATIONS)))

    on, off = run(True), run(False)
    assert len(generate_calls) == 2
    # ChatML adds <|im_start|>user\n ... <|im_end|>\n<|im_start|>assistant\n around the prompt.
    assert on["prompt_tokens"] - off["prompt_tokens"] == 8
    assert off["usage"]["prompt_tokens"] == off["prompt_tokens"]
    assert on["request_key"] != off["request_key"]
    assert (
        read_json(tmp_path / "chat-False" / "results.json")["plan"]["chat_template_applied"]
        is False
    )


def test_openai_backend_against_transformers_serve_resumes(
    tiny_release: Path, openai_server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def args(out: Path) -> list[str]:
        return [
            "eval",
            "--release",
            str(tiny_release),
            "--model",
            openai_server.model,
            "--backend",
            "openai",
            "--base-url",
            openai_server.base_url,
            "--subsets",
            "S,M",
            "--limit",
            "1",
            "--max-new-tokens",
            "6",
            "--concurrency",
            "1",
            "--out",
            str(out),
        ]

    before = openai_server.requests_seen()
    assert main(args(tmp_path / "full")) in (0, 1)
    full_requests = openai_server.requests_seen() - before
    assert full_requests == 4
    full = read_json(tmp_path / "full" / "results.json")
    assert full["model"]["tokenizer"].startswith("hf-folder:")
    for line in read_jsonl(tmp_path / "full" / GENERATIONS):
        assert line["usage"]["prompt_tokens"] == line["prompt_tokens"]
    assert (tmp_path / "full" / "report.md").is_file()

    # Interrupt after two answers, then resume: the server sees each request once.
    import lengthwise.evaluation.runner as runner_module

    original = runner_module.run_eval
    resumed_dir = tmp_path / "resumed"
    before = openai_server.requests_seen()
    config_args = args(resumed_dir)

    def interrupted(config: EvalConfig, observer: Any = None) -> Any:
        return original(config, observer=_stop_after(2))

    with monkeypatch.context() as patch:
        patch.setattr(runner_module, "run_eval", interrupted)
        assert main(config_args) == 130  # the CLI's "interrupted; rerun to resume"
    assert main(config_args) in (0, 1)
    assert openai_server.requests_seen() - before == 4
    resumed = read_json(resumed_dir / "results.json")
    assert resumed["results"] == full["results"]
