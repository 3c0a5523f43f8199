"""The evaluated model: engine settings and the `LLMClient` that runs them.

Backends:
- ``transformers``: a local model folder (lengthwise.llm.transformers_backend);
- ``openai``: any OpenAI-compatible endpoint (``--base-url``), including
  ``transformers serve`` and a ``vllm serve`` you started yourself;
- ``vllm``: the vLLM offline engine in this process (lengthwise.evaluation.vllm_engine);
- ``vllm-server``: vLLM's OpenAI server launched for the run, then the ``openai`` client;
- ``baseline``: no model; ``--model lead-N|random-N|drafts`` (lengthwise.evaluation.baselines).

Chat template "off" (base models): the transformers and vllm backends send the plain
prompt string, no template, no special tokens beyond the tokenizer's own BOS. Over an
OpenAI-compatible *chat* endpoint the server always applies its template, so "off" sends
the same completions-style prompt as one user message and the plan says the template
was applied by the server; use ``transformers`` or ``vllm`` for a true base-model run.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

from lengthwise.errors import UserError
from lengthwise.llm.batch import run_batch
from lengthwise.llm.cache import RequestCache, request_key
from lengthwise.llm.transformers_backend import TransformersClient, _Loaded
from lengthwise.llm.types import ChatRequest, ChatResult, LLMClient, ResultCallback
from lengthwise.spec import LLMRoleConfig

Backend = Literal["transformers", "openai", "vllm", "vllm-server", "baseline"]
BACKENDS: Final = ("transformers", "openai", "vllm", "vllm-server", "baseline")
_WEIGHT_SUFFIXES: Final = (".safetensors", ".bin", ".gguf", ".pt")


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
    tensor_parallel_size: int = 1
    enable_prefix_caching: bool = True
    gpu_memory_utilization: float = 0.9
    dtype: str = "auto"
    enforce_eager: bool = False
    rope_scaling: dict[str, Any] | None = None
    rope_theta: float | None = None
    hf_overrides: dict[str, Any] | None = None
    vllm_python: str | None = None  # interpreter of the venv holding vLLM (server)
    server_port: int | None = None
    server_start_timeout: float = 900.0
    extra_server_args: tuple[str, ...] = field(default_factory=tuple)

    def answer_settings(self) -> dict[str, Any]:
        settings: dict[str, Any] = {"backend": self.backend, "chat_template": self.chat_template}
        if self.backend in ("vllm", "vllm-server"):
            settings.update(
                dtype=self.dtype,
                tensor_parallel_size=self.tensor_parallel_size,
                max_model_len=self.max_model_len,
                overrides=engine_overrides(self),
            )
        return settings

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["extra_server_args"] = list(self.extra_server_args)
        return data


def engine_overrides(settings: EngineSettings) -> dict[str, Any]:
    """The model-config overrides vLLM gets as ``hf_overrides`` (rope/YaRN and raw ones)."""
    overrides: dict[str, Any] = dict(settings.hf_overrides or {})
    if settings.rope_scaling is not None:
        overrides["rope_scaling"] = dict(settings.rope_scaling)
    if settings.rope_theta is not None:
        overrides["rope_theta"] = settings.rope_theta
    return overrides


def yarn_rope_scaling(factor: float, original_max_positions: int) -> dict[str, Any]:
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


class PlainPromptTransformersClient(TransformersClient):
    """The transformers backend with the chat template off: the prompt string as is."""

    def _prompt_ids(self, loaded: _Loaded, request: ChatRequest) -> list[int]:
        text = "\n\n".join(m.content for m in request.messages)
        return list(loaded.tokenizer(text)["input_ids"])


class CachedClient:
    """Request-cache lookups keyed by `key_config` around a client that has no cache.

    Used where the endpoint's address is not part of the answer's identity (a vLLM server
    launched on a free port for each run).
    """

    def __init__(self, inner: LLMClient, key_config: LLMRoleConfig, cache: RequestCache) -> None:
        self.inner = inner
        self.key_config = key_config
        self.cache = cache

    @property
    def name(self) -> str:
        return self.inner.name

    def complete(self, request: ChatRequest) -> ChatResult:
        key = request_key(self.key_config, request)
        hit = self.cache.get(key)
        if hit is not None:
            return hit
        result = self.inner.complete(request)
        self.cache.put(key, result, prompt_version=request.prompt_version)
        return result

    def complete_many(
        self, requests: Sequence[ChatRequest], *, on_result: ResultCallback | None = None
    ) -> list[ChatResult]:
        return run_batch(
            requests, self.complete, concurrency=self.key_config.concurrency, on_result=on_result
        )


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
        base_url=settings.base_url,
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


def make_eval_client(
    settings: EngineSettings,
    config: LLMRoleConfig,
    cache: RequestCache | None,
) -> LLMClient:
    """The client for transformers/openai (vLLM backends: see vllm_engine)."""
    if settings.backend == "transformers":
        client_class = (
            TransformersClient if settings.chat_template else PlainPromptTransformersClient
        )
        return client_class(config, cache, device=settings.device)
    if settings.backend == "openai":
        if not settings.base_url:
            raise UserError("--backend openai needs --base-url (e.g. http://127.0.0.1:8000/v1)")
        from lengthwise.llm.openai_backend import OpenAIClient

        return OpenAIClient(config, cache)
    raise ValueError(f"backend {settings.backend!r} is not served by make_eval_client")


def require_backend(backend: str) -> None:
    """A one-line error naming the extra to install, before anything runs."""
    from lengthwise.extras import require

    if backend == "transformers":
        require("the transformers backend", "torch", "transformers")
    elif backend == "vllm":
        require("the vllm backend (CPU: --backend vllm-server --vllm-python PY)", "vllm")


def parse_json_option(text: str | None, flag: str) -> dict[str, Any] | None:
    """A JSON object given on the command line, with an error naming the flag."""
    if text is None:
        return None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UserError(f"{flag}: not valid JSON ({exc.msg}): {text!r}") from None
    if not isinstance(value, dict):
        raise UserError(f"{flag}: expected a JSON object, got {text!r}")
    return value
