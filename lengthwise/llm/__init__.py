"""LLM layer: one interface for every role, pluggable backends, an on-disk request cache.

`make_client(role_config, RequestCache(path))` gives the configured `LLMClient`;
backends import their heavy dependencies (openai, torch, transformers) on first use.
"""

from lengthwise.llm.accounting import RoleUsage, UsageLedger
from lengthwise.llm.cache import RequestCache, request_key
from lengthwise.llm.factory import make_client, make_request
from lengthwise.llm.types import (
    ChatRequest,
    ChatResult,
    LLMClient,
    Message,
    Outcome,
    ResultCallback,
    Usage,
)

__all__ = [
    "ChatRequest",
    "ChatResult",
    "LLMClient",
    "Message",
    "Outcome",
    "RequestCache",
    "ResultCallback",
    "RoleUsage",
    "Usage",
    "UsageLedger",
    "make_client",
    "make_request",
    "request_key",
]
