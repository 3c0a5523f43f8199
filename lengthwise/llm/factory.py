"""Build the configured client for a role, and requests that use the role's decoding defaults."""

from __future__ import annotations

from typing import Any

from lengthwise.errors import UserError
from lengthwise.llm.cache import RequestCache
from lengthwise.llm.types import ChatRequest, LLMClient
from lengthwise.spec import LLMRoleConfig


def make_client(config: LLMRoleConfig, cache: RequestCache | None = None) -> LLMClient:
    """The `LLMClient` for `config.backend` ("openai" or "transformers")."""
    if config.backend == "openai":
        from lengthwise.llm.openai_backend import OpenAIClient

        return OpenAIClient(config, cache)
    if config.backend == "transformers":
        from lengthwise.llm.transformers_backend import TransformersClient

        return TransformersClient(config, cache)
    raise UserError(f"unknown LLM backend {config.backend!r} (expected openai or transformers)")


def make_request(
    config: LLMRoleConfig,
    system: str | None,
    user: str,
    *,
    prompt_version: str,
    **options: Any,
) -> ChatRequest:
    """A request with the role's max_tokens, temperature and seed unless `options` override them."""
    defaults: dict[str, Any] = {
        "max_tokens": config.max_tokens,
        "temperature": config.temperature,
        "seed": config.seed,
    }
    return ChatRequest.of(system, user, prompt_version=prompt_version, **(defaults | options))
