"""Requests that use a role's decoding defaults; `make_client` lives in the registry."""

from __future__ import annotations

from typing import Any

from lengthwise.llm.registry import make_client
from lengthwise.llm.types import ChatRequest
from lengthwise.spec import LLMRoleConfig

__all__ = ["make_client", "make_request"]


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
