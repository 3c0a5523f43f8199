"""The evaluated model: engine settings and the `LLMClient` that runs them.

Backends:
- ``transformers``: a local model folder (lengthwise.llm.transformers_backend);
- ``openai``: any OpenAI-compatible endpoint (``--base-url``), including
  ``transformers serve`` and a ``vllm serve`` you started yourself;
- ``vllm``: the vLLM offline engine in this process (lengthwise.evaluation.vllm_engine);
- ``vllm-server``: vLLM's OpenAI server launched for the run, then the ``openai`` client;
- ``baseline``: no model; ``--model lead-N|random-N|drafts`` (lengthwise.evaluation.baselines).

Every backend is a provider of the model registry (lengthwise.llm.registry), built by
name and wrapped in the one request cache. Chat template "off" (base models): the
transformers and vllm providers' public ``chat_template=False`` sends the plain prompt
string, no template, no special tokens beyond the tokenizer's own BOS. Over an
OpenAI-compatible *chat* endpoint the server always applies its template, so "off" sends
the same completions-style prompt as one user message and the plan says the template
was applied by the server; use ``transformers`` or ``vllm`` for a true base-model run.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Final, Literal

from pydantic import ConfigDict, with_config

from lengthwise.errors import UserError
from lengthwise.evaluation.json_types import JsonObject, JsonValue
from lengthwise.spec import LLMRoleConfig
from lengthwise.spec_scaling import EndpointConfig

# `scripted` (lengthwise.llm.scripted) answers from a Python function: tests and dry runs.
Backend = Literal["transformers", "openai", "vllm", "vllm-server", "baseline", "scripted"]
BACKENDS: Final = ("transformers", "openai", "vllm", "vllm-server", "baseline")
_WEIGHT_SUFFIXES: Final = (".safetensors", ".bin", ".gguf", ".pt")


@with_config(ConfigDict(extra="forbid"))  # validated inside EvalConfig: unknown keys named
@dataclass(frozen=True)
class EngineSettings:
    """Everything about how the model runs. `answer_settings` is the part that can change
    answers (keyed in the request cache); the rest only changes speed."""

    backend: Backend
    model: str
    chat_template: bool = True
    revision: str | None = None
    base_url: str | None = None
    api_key_env: str | None = None
    concurrency: int = 4
    timeout_seconds: float = 600.0
    max_retries: int = 4
    device: str = "auto"  # transformers
    # vLLM (offline engine and server)
    max_model_len: int | None = None
    tensor_parallel_size: int = 1  # GPUs one replica's layers are split over (one node)
    pipeline_parallel_size: int = 1  # stages of one replica (across GPUs or nodes)
    data_parallel_size: int = 1  # replicas behind one vllm-server (vLLM balances them)
    endpoints: tuple[str, ...] = field(default_factory=tuple)  # openai: servers of one model
    enable_prefix_caching: bool = True
    gpu_memory_utilization: float = 0.9
    dtype: str = "auto"
    enforce_eager: bool = False
    rope_scaling: JsonObject | None = None
    rope_theta: float | None = None
    hf_overrides: JsonObject | None = None
    vllm_python: str | None = None  # interpreter of the venv holding vLLM (server)
    server_port: int | None = None
    server_start_timeout: float = 900.0
    extra_server_args: tuple[str, ...] = field(default_factory=tuple)

    def answer_settings(self) -> JsonObject:
        settings: JsonObject = {"backend": self.backend, "chat_template": self.chat_template}
        if self.backend in ("vllm", "vllm-server"):
            settings.update(
                dtype=self.dtype,
                tensor_parallel_size=self.tensor_parallel_size,
                max_model_len=self.max_model_len,
                overrides=engine_overrides(self),
            )
            if self.pipeline_parallel_size != 1:  # keyed only when set: old keys hold
                settings["pipeline_parallel_size"] = self.pipeline_parallel_size
        return settings

    def layout(self) -> JsonObject:
        """How the model was spread over hardware, for the run header (results.json)."""
        vllm = self.backend in ("vllm", "vllm-server")
        servers = len(self.endpoints) or (1 if self.backend != "baseline" else 0)
        layout: JsonObject = {"servers": servers, "endpoints": list(self.endpoints)}
        if vllm:
            per_replica = self.tensor_parallel_size * self.pipeline_parallel_size
            layout |= {
                "tensor_parallel_size": self.tensor_parallel_size,
                "pipeline_parallel_size": self.pipeline_parallel_size,
                "data_parallel_size": self.data_parallel_size,
                "gpus_per_replica": per_replica,
                "replicas": self.data_parallel_size,
                "gpus": per_replica * self.data_parallel_size,
            }
            layout["description"] = (
                f"{self.backend}: {self.data_parallel_size} replica(s) x TP "
                f"{self.tensor_parallel_size} x PP {self.pipeline_parallel_size} "
                f"= {layout['gpus']} GPU(s)"
            )
        else:
            layout["description"] = f"{self.backend}: {servers} server(s)"
        return layout

    def to_dict(self) -> JsonObject:
        data: JsonObject = asdict(self)
        data["extra_server_args"] = list(self.extra_server_args)
        data["endpoints"] = list(self.endpoints)
        return data


def engine_overrides(settings: EngineSettings) -> JsonObject:
    """The model-config overrides vLLM gets as ``hf_overrides`` (rope/YaRN and raw ones)."""
    overrides: JsonObject = dict(settings.hf_overrides or {})
    if settings.rope_scaling is not None:
        overrides["rope_scaling"] = dict(settings.rope_scaling)
    if settings.rope_theta is not None:
        overrides["rope_theta"] = settings.rope_theta
    return overrides


def yarn_rope_scaling(factor: float, original_max_positions: int) -> JsonObject:
    """The YaRN rope_scaling block Qwen2.5 documents for long contexts."""
    if factor <= 1:
        raise UserError(f"--yarn-factor must be above 1, got {factor}")
    return {
        "rope_type": "yarn",
        "factor": factor,
        "original_max_position_embeddings": original_max_positions,
    }


def local_model_revision(folder: Path) -> str:
    """A cheap identity of a local model folder: config, tokenizer files and weight sizes.

    Weights are not hashed (tens of GB); their names and sizes are, and a Hugging Face
    cache snapshot keeps its commit hash in the path, which is included too.
    """
    digest = hashlib.sha256()
    for name in (
        "config.json",
        "generation_config.json",
        "tokenizer.json",
        "tokenizer_config.json",
    ):
        path = folder / name
        if path.is_file():
            digest.update(name.encode() + b"\0" + path.read_bytes())
    for path in sorted(folder.iterdir()):
        if path.suffix in _WEIGHT_SUFFIXES:
            digest.update(f"{path.name}\0{path.stat().st_size}".encode())
    snapshot = folder.parent.name == "snapshots"
    prefix = f"snapshot:{folder.name[:12]}:" if snapshot else "local:"
    return prefix + digest.hexdigest()[:16]


def key_identity(settings: EngineSettings) -> JsonObject:
    """What the request-cache key takes from the engine: its provider, the chat-template
    switch and the engine settings that change answers (see `answer_settings`)."""
    engine = {
        name: value
        for name, value in settings.answer_settings().items()
        if name not in ("backend", "chat_template")
    }
    return {"provider": settings.backend, "chat_template": settings.chat_template, "engine": engine}


def role_config(
    settings: EngineSettings,
    *,
    context_window: int | None,
    max_tokens: int,
    temperature: float,
    seed: int | None,
) -> LLMRoleConfig:
    """The LLM-layer config for the transformers/openai clients."""
    backend: Literal["openai", "transformers"] = (
        "transformers" if settings.backend == "transformers" else "openai"
    )
    return LLMRoleConfig(
        backend=backend,
        model=settings.model,
        base_url=None if settings.endpoints else settings.base_url,
        endpoints=[EndpointConfig(base_url=url) for url in settings.endpoints],
        api_key_env=settings.api_key_env,
        revision=settings.revision,
        max_tokens=max_tokens,
        temperature=temperature,
        seed=seed,
        concurrency=settings.concurrency,
        timeout_seconds=settings.timeout_seconds,
        max_retries=settings.max_retries,
        context_window=context_window,
    )


def require_backend(backend: str) -> None:
    """A one-line error naming the extra to install, before anything runs."""
    from lengthwise.extras import require

    if backend == "transformers":
        require("the transformers backend", "torch", "transformers")
    elif backend == "vllm":
        require("the vllm backend (CPU: --backend vllm-server --vllm-python PY)", "vllm")


def parse_json_option(text: str | None, flag: str) -> JsonObject | None:
    """A JSON object given on the command line, with an error naming the flag."""
    if text is None:
        return None
    try:
        value: JsonValue = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UserError(f"{flag}: not valid JSON ({exc.msg}): {text!r}") from None
    if not isinstance(value, dict):
        raise UserError(f"{flag}: expected a JSON object, got {text!r}")
    return value
