"""vLLM's own scaling (TP, PP, DP replicas, several servers) reaches the engine and the
run header; nothing shards prompts by hand."""

from __future__ import annotations

import argparse

import pytest

from lengthwise.errors import UserError
from lengthwise.evaluation.backends import key_identity, role_config
from lengthwise.evaluation.commands import engine_from_args, register
from lengthwise.evaluation.vllm_engine import engine_kwargs, server_command


def _parse(backend: str, *extra: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers(dest="command"))
    base = ["eval", "--release", "r", "--model", "/models/q", "--backend", backend]
    return parser.parse_args([*base, *extra])


def test_server_gets_tensor_pipeline_and_data_parallel_flags() -> None:
    engine = engine_from_args(
        _parse(
            "vllm-server",
            "--tensor-parallel-size",
            "4",
            "--pipeline-parallel-size",
            "2",
            "--data-parallel-size",
            "2",
        )
    )
    command = server_command(
        engine, python="py", host="127.0.0.1", port=8000, max_model_len=131072, seed=0
    )
    flags = {command[i]: command[i + 1] for i in range(len(command) - 1)}
    assert flags["--tensor-parallel-size"] == "4"
    assert flags["--pipeline-parallel-size"] == "2"
    assert flags["--data-parallel-size"] == "2"
    layout = engine.layout()
    assert (layout["gpus_per_replica"], layout["replicas"], layout["gpus"]) == (8, 2, 16)
    assert layout["description"] == "vllm-server: 2 replica(s) x TP 4 x PP 2 = 16 GPU(s)"


def test_defaults_add_no_flags_and_keep_cache_keys() -> None:
    engine = engine_from_args(_parse("vllm-server"))
    command = server_command(engine, python="py", host="h", port=1, max_model_len=8, seed=0)
    assert "--data-parallel-size" not in command and "--pipeline-parallel-size" not in command
    wider = engine_from_args(_parse("vllm-server", "--data-parallel-size", "4"))
    assert key_identity(wider) == key_identity(engine)  # replicas do not change answers
    staged = engine_from_args(_parse("vllm-server", "--pipeline-parallel-size", "2"))
    assert key_identity(staged) != key_identity(engine)


def test_offline_engine_takes_pipeline_stages_but_refuses_replicas() -> None:
    staged = engine_from_args(_parse("vllm", "--pipeline-parallel-size", "2"))
    assert engine_kwargs(staged, 4096, 0)["pipeline_parallel_size"] == 2
    replicas = engine_from_args(_parse("vllm", "--data-parallel-size", "2"))
    with pytest.raises(UserError, match="vllm-server"):
        engine_kwargs(replicas, 4096, 0)


def test_several_servers_become_the_roles_endpoints() -> None:
    engine = engine_from_args(
        _parse("openai", "--endpoint", "http://n1:8000/v1", "--endpoint", "http://n2:8000/v1")
    )
    config = role_config(engine, context_window=None, max_tokens=8, temperature=0.0, seed=0)
    assert [e.base_url for e in config.endpoints] == ["http://n1:8000/v1", "http://n2:8000/v1"]
    assert config.base_url is None
    assert engine.layout()["servers"] == 2
    assert engine.layout()["description"] == "openai: 2 server(s)"
