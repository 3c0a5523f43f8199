"""LLM layer: one interface for every role, pluggable backends, an on-disk request cache."""

from lengthwise.llm.types import ChatRequest, ChatResult, LLMClient, Message, Outcome, Usage

__all__ = ["ChatRequest", "ChatResult", "LLMClient", "Message", "Outcome", "Usage"]
