"""The model registry: every provider by name, imported only when it is built.

A provider is a function `build(config: LLMRoleConfig, **options) -> LLMClient` named by
"module:function". Building one first checks the modules it needs (a missing extra is
the one-line `MissingExtraError` from lengthwise.extras), then imports its module, so
`import lengthwise.llm` never imports openai, torch, transformers or vllm. The request
cache is applied once, around whatever was built (`make_client` / `CachedClient`).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from lengthwise.errors import UserError
from lengthwise.llm.cache import RequestCache
from lengthwise.llm.cached import CachedClient
from lengthwise.llm.generation import identity_of
from lengthwise.llm.types import LLMClient
from lengthwise.spec import LLMRoleConfig


@dataclass(frozen=True)
class Provider:
    name: str
    target: str  # "package.module:function"
    needs: tuple[str, ...] = ()  # modules checked (extras) before the import
    feature: str = ""  # how a missing-extra message names it


_PROVIDERS: dict[str, Provider] = {}


def register_provider(
    name: str, target: str, *, needs: tuple[str, ...] = (), feature: str = ""
) -> None:
    """Add (or replace) provider `name`; nothing is imported until it is built."""
    if ":" not in target:
        raise ValueError(f"provider {name!r}: target must be 'module:function', got {target!r}")
    _PROVIDERS[name] = Provider(name, target, needs, feature or f"the {name} backend")


def provider_names() -> list[str]:
    return sorted(_PROVIDERS)


def build_provider(name: str, config: LLMRoleConfig, **options: Any) -> LLMClient:
    """The uncached client of provider `name` for `config` (options are provider-specific)."""
    provider = _PROVIDERS.get(name)
    if provider is None:
        raise UserError(f"unknown LLM backend {name!r} (expected {' or '.join(provider_names())})")
    if provider.needs:
        from lengthwise.extras import require

        require(provider.feature, *provider.needs)
    module_name, function = provider.target.split(":", 1)
    builder = getattr(importlib.import_module(module_name), function)
    client: LLMClient = builder(config, **options)
    return client


def make_client(
    config: LLMRoleConfig,
    cache: RequestCache | None = None,
    *,
    provider: str | None = None,
    key: dict[str, Any] | None = None,
    **options: Any,
) -> LLMClient:
    """The client for `config` (provider: `config.backend` unless named), behind `cache`.

    `key` overrides identity fields of the cache key (chat_template, engine, provider);
    `chat_template` in `options` is keyed as well as passed to the provider.
    """
    name = provider or config.backend
    client = build_provider(name, config, **options)
    if cache is None:
        return client
    overrides = {"provider": name} | (key or {})
    if "chat_template" in options:
        overrides.setdefault("chat_template", options["chat_template"])
    return CachedClient(client, cache, identity_of(config, **overrides))


register_provider("openai", "lengthwise.llm.openai_backend:build", needs=("openai",))
register_provider(
    "transformers",
    "lengthwise.llm.transformers_backend:build",
    needs=("torch", "transformers"),
    feature="the transformers backend",
)
register_provider(
    "vllm",
    "lengthwise.evaluation.vllm_engine:build",
    needs=("vllm",),
    feature="the vllm backend (CPU: --backend vllm-server --vllm-python PY)",
)
register_provider("vllm-server", "lengthwise.evaluation.vllm_engine:build_served")
register_provider("baseline", "lengthwise.evaluation.baselines:build")
register_provider("scripted", "lengthwise.llm.scripted:build")
