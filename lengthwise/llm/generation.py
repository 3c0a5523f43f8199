"""The validated generation config: everything that decides an answer, and so its cache key.

`GenerationConfig` holds one request as a provider would run it: the model's identity
(provider, model, revision, base URL, chat-template switch, engine settings that change
outputs) and the request (messages, decoding, prompt version). Every field is keyed
unless it is marked transport (`Transport(...)`: timeouts, concurrency, retries, rate,
API key, prices, request metadata), so a field added later is keyed unless someone
decides otherwise.

Key compatibility: the fields added after key schema 1 (`KEYED_WHEN_SET`) enter the key
only when they differ from their default, so every answer cached under schema 1 keeps
its key. Floats are keyed as floats (0 == 0.0), a local model folder by its absolute
path, a base URL normalised (`HTTP://Host/v1/` == `http://host/v1`).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit, urlunsplit

from pydantic import BaseModel, ConfigDict, Field

from lengthwise.llm.types import ChatRequest
from lengthwise.spec import LLMRoleConfig

# Bump when the key layout changes, so old entries can never be misread as new ones.
KEY_SCHEMA: Final = 1
# Keyed fields newer than schema 1: keyed only when not at their default (see docstring).
KEYED_WHEN_SET: Final = frozenset({"chat_template", "engine", "context_window"})
# Providers that run a local model folder: keyed by its absolute path.
LOCAL_FOLDER_PROVIDERS: Final = frozenset({"transformers"})


def Transport(default: Any = None) -> Any:
    """A field that changes how a request is sent, never its answer: not keyed."""
    return Field(default=default, json_schema_extra={"transport": True})


class GenerationConfig(BaseModel):
    """One request as a provider runs it; `key()` is the request-cache key."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    provider: str
    model: str
    revision: str = ""
    base_url: str = ""
    chat_template: bool = True
    engine: dict[str, Any] = Field(default_factory=dict)  # engine settings that change outputs
    context_window: int | None = None  # a prompt over it is `over_length`, not answered
    messages: tuple[tuple[str, str], ...] = ()
    max_tokens: int = Field(default=512, gt=0)
    temperature: float = Field(default=0.0, ge=0)
    top_p: float = Field(default=1.0, gt=0, le=1)
    seed: int | None = 0
    stop: tuple[str, ...] = ()
    prompt_version: str = ""
    # Transport: how the request is sent and accounted for.
    api_key_env: str | None = Transport()
    timeout_seconds: float | None = Transport()
    concurrency: int | None = Transport()
    max_retries: int | None = Transport()
    requests_per_second: float | None = Transport()
    price_per_million_input: float | None = Transport()
    price_per_million_output: float | None = Transport()
    metadata: tuple[tuple[str, str], ...] = Transport(())

    @classmethod
    def transport_fields(cls) -> frozenset[str]:
        return frozenset(
            name
            for name, info in cls.model_fields.items()
            if isinstance(info.json_schema_extra, dict) and info.json_schema_extra.get("transport")
        )

    def keyed_fields(self) -> dict[str, Any]:
        """The keyed fields as plain JSON values, in the schema-1 layout."""
        data = self.model_dump(exclude=set(self.transport_fields()))
        for name in KEYED_WHEN_SET:
            if data[name] == type(self).model_fields[name].get_default(call_default_factory=True):
                del data[name]
        data["backend"] = data.pop("provider")  # the schema-1 name of the field
        if self.provider in LOCAL_FOLDER_PROVIDERS:
            data["model"] = str(Path(self.model).expanduser().resolve())
        data["base_url"] = normalise_base_url(self.base_url)
        data["messages"] = [list(message) for message in self.messages]
        data["stop"] = list(self.stop)
        data["temperature"], data["top_p"] = float(self.temperature), float(self.top_p)
        data["schema"] = KEY_SCHEMA
        return data

    def key(self) -> str:
        """sha256 hex of the canonical JSON of the keyed fields."""
        canonical = json.dumps(
            self.keyed_fields(), ensure_ascii=False, sort_keys=True, separators=(",", ":")
        )
        return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def normalise_base_url(base_url: str | None) -> str:
    """`HTTP://Host:8000/v1/` and `http://host:8000/v1` name the same endpoint."""
    if not base_url:
        return ""
    parts = urlsplit(base_url.strip())
    return urlunsplit(
        (parts.scheme.lower(), parts.netloc.lower(), parts.path.rstrip("/"), parts.query, "")
    )


def identity_of(config: LLMRoleConfig, **overrides: Any) -> dict[str, Any]:
    """The model part of a generation config for a spec role (provider = its backend).

    `overrides` sets provider-level fields the role config does not hold (chat_template,
    engine, provider); the base URL is keyed for the openai provider only.
    """
    identity: dict[str, Any] = {
        "provider": config.backend,
        "model": config.model,
        "revision": config.revision or "",
        "base_url": config.base_url or "",
        "context_window": config.context_window,
        "api_key_env": config.api_key_env,
        "timeout_seconds": config.timeout_seconds,
        "concurrency": config.concurrency,
        "max_retries": config.max_retries,
        "requests_per_second": config.requests_per_second,
        "price_per_million_input": config.price_per_million_input,
        "price_per_million_output": config.price_per_million_output,
    } | overrides
    if identity["provider"] != "openai":
        identity["base_url"] = ""
    return identity


def generation_config(identity: dict[str, Any], request: ChatRequest) -> GenerationConfig:
    """`identity` (see `identity_of`) with `request`'s messages and decoding."""
    return GenerationConfig(
        **identity,
        messages=tuple((m.role, m.content) for m in request.messages),
        max_tokens=request.max_tokens,
        temperature=request.temperature,
        top_p=request.top_p,
        seed=request.seed,
        stop=request.stop,
        prompt_version=request.prompt_version,
        metadata=request.metadata,
    )


def request_key(config: LLMRoleConfig, request: ChatRequest, **overrides: Any) -> str:
    """The cache key of `request` sent as `config` (plus `overrides`, see `identity_of`)."""
    return generation_config(identity_of(config, **overrides), request).key()
