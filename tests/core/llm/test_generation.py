"""GenerationConfig: every field is keyed unless marked transport, and keys stay stable."""

from __future__ import annotations

from typing import Any

import pytest

from lengthwise.llm.generation import GenerationConfig

BASE = GenerationConfig(
    provider="openai",
    model="qwen2.5-7b",
    base_url="http://127.0.0.1:8000/v1",
    messages=(("system", "You summarise."), ("user", "第一回 …")),
    prompt_version="draft-zh-v1",
)
# A different value for every field of the config (a new field fails until it is listed).
CHANGED: dict[str, Any] = {
    "provider": "transformers",
    "model": "qwen2.5-14b",
    "revision": "abc",
    "base_url": "http://127.0.0.1:8001/v1",
    "chat_template": False,
    "engine": {"dtype": "float16"},
    "context_window": 4096,
    "messages": (("user", "第二回 …"),),
    "max_tokens": 64,
    "temperature": 0.7,
    "top_p": 0.9,
    "seed": 3,
    "stop": ("\n\n",),
    "prompt_version": "draft-zh-v2",
    "api_key_env": "KEY",
    "timeout_seconds": 5.0,
    "concurrency": 32,
    "max_retries": 0,
    "requests_per_second": 0.5,
    "price_per_million_input": 2.0,
    "price_per_million_output": 6.0,
    "metadata": (("sample", "L-1"),),
}


def test_every_field_has_a_changed_value_listed() -> None:
    assert set(CHANGED) == set(GenerationConfig.model_fields)


@pytest.mark.parametrize("name", sorted(CHANGED))
def test_a_field_changes_the_key_unless_it_is_transport(name: str) -> None:
    changed = BASE.model_copy(update={name: CHANGED[name]})
    transport = name in GenerationConfig.transport_fields()
    assert (changed.key() == BASE.key()) is transport


def test_transport_fields_are_the_sending_settings() -> None:
    assert GenerationConfig.transport_fields() == {
        "api_key_env",
        "timeout_seconds",
        "concurrency",
        "max_retries",
        "requests_per_second",
        "price_per_million_input",
        "price_per_million_output",
        "metadata",
    }


def test_unknown_fields_are_rejected_by_name() -> None:
    with pytest.raises(ValueError, match="temprature"):
        GenerationConfig(provider="openai", model="m", temprature=0.5)  # type: ignore[call-arg]


def test_schema_one_keys_are_unchanged() -> None:
    """Answers cached before the registry keep their keys (fixed value from schema 1)."""
    from lengthwise.llm.cache import request_key
    from lengthwise.llm.types import ChatRequest
    from lengthwise.spec import LLMRoleConfig

    config = LLMRoleConfig(model="qwen2.5-7b", base_url="http://127.0.0.1:8000/v1")
    request = ChatRequest.of("You summarise.", "第一回 …", prompt_version="draft-zh-v1")
    assert request_key(config, request) == SCHEMA_ONE_KEY


# The key main computed for this request before GenerationConfig existed.
SCHEMA_ONE_KEY = "4abb5cb00dcc152602518d62150454dec96fd5d6d914c37edc24834e14e69b04"
