"""Retries and outcome classification of the OpenAI backend.

These run against `ScriptedOpenAIServer`: a real HTTP server on 127.0.0.1 scripted to
answer with OpenAI-shaped error and success bodies, because a real model server does
not produce 429s, 5xx, timeouts or content-filter refusals on demand.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from lengthwise.llm.cache import RequestCache
from lengthwise.llm.openai_backend import MissingApiKeyError, OpenAIClient
from lengthwise.llm.registry import make_client
from lengthwise.llm.types import ChatRequest, LLMClient
from lengthwise.spec import LLMRoleConfig
from tests.fixtures.scripted_openai import Reply, ScriptedOpenAIServer, error_body, ok_body

REQUEST = ChatRequest.of(None, "Summarise chapter 1.", prompt_version="t1", max_tokens=16)
StartServer = Callable[..., ScriptedOpenAIServer]


class RecordedSleeps(list[float]):
    """Stands in for time.sleep: records the waits instead of waiting."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)


def _client(
    server: ScriptedOpenAIServer,
    *,
    cache: RequestCache | None = None,
    sleeps: RecordedSleeps | None = None,
    **settings: Any,
) -> LLMClient:
    config = LLMRoleConfig(model="m", base_url=server.base_url, **settings)
    return make_client(
        config,
        cache,
        retry_base_seconds=0.5,
        sleep=sleeps if sleeps is not None else RecordedSleeps(),
    )


def test_a_success_carries_text_usage_and_model(scripted_openai: StartServer) -> None:
    server = scripted_openai([Reply(body=ok_body("章回", prompt_tokens=11, completion_tokens=2))])
    result = _client(server).complete(REQUEST)
    assert (result.outcome, result.text, result.model) == ("ok", "章回", "scripted-model")
    assert (result.usage.prompt_tokens, result.usage.completion_tokens) == (11, 2)
    sent = server.requests[0].body
    assert sent["model"] == "m" and sent["max_tokens"] == 16 and sent["temperature"] == 0.0
    assert sent["messages"] == [{"role": "user", "content": "Summarise chapter 1."}]


def test_server_errors_are_retried_with_growing_backoff(scripted_openai: StartServer) -> None:
    failures = [Reply(500, error_body("boom", type="server_error"))] * 2 + [Reply(503, "busy")]
    server = scripted_openai(failures)
    sleeps = RecordedSleeps()
    result = _client(server, sleeps=sleeps, max_retries=4).complete(REQUEST)
    assert result.outcome == "ok" and len(server.requests) == 4
    assert len(sleeps) == 3
    # Jittered exponential backoff: attempt n waits within [base * 2**n / 2, base * 2**n].
    for attempt, waited in enumerate(sleeps):
        assert 0.5 * 2**attempt / 2 <= waited <= 0.5 * 2**attempt


def test_a_429_waits_as_long_as_retry_after_says(scripted_openai: StartServer) -> None:
    limited = Reply(429, error_body("slow down", type="rate_limit_error"), {"Retry-After": "7"})
    server = scripted_openai([limited])
    sleeps = RecordedSleeps()
    result = _client(server, sleeps=sleeps).complete(REQUEST)
    assert result.outcome == "ok" and len(server.requests) == 2
    assert sleeps == [7.0]


def test_timeouts_are_retried(scripted_openai: StartServer) -> None:
    server = scripted_openai([Reply(delay=3.0)])  # answers after the client has given up
    result = _client(server, timeout_seconds=0.5).complete(REQUEST)
    assert result.outcome == "ok" and len(server.requests) == 2


def test_dropped_connections_are_retried(scripted_openai: StartServer) -> None:
    server = scripted_openai([Reply(drop=True)])
    result = _client(server).complete(REQUEST)
    assert result.outcome == "ok" and len(server.requests) == 2


def test_giving_up_records_an_error_that_is_not_cached(
    scripted_openai: StartServer, tmp_path: Path
) -> None:
    server = scripted_openai(then=Reply(502, "bad gateway"))
    cache = RequestCache(tmp_path / "c.sqlite")
    result = _client(server, cache=cache, max_retries=2).complete(REQUEST)
    assert result.outcome == "error" and len(server.requests) == 3
    assert result.error is not None and "502" in result.error and "3 attempts" in result.error
    # Not cached: the next run asks again.
    _client(server, cache=cache, max_retries=0).complete(REQUEST)
    assert len(server.requests) == 4 and len(cache) == 0


def test_client_errors_are_not_retried(scripted_openai: StartServer) -> None:
    server = scripted_openai([Reply(401, error_body("bad key", type="authentication_error"))])
    result = _client(server).complete(REQUEST)
    assert result.outcome == "error" and "401" in (result.error or "")
    assert len(server.requests) == 1


@pytest.mark.parametrize(
    ("reply", "outcome"),
    [
        (Reply(body=ok_body("", finish_reason="content_filter")), "blocked"),
        (
            Reply(
                400,
                error_body(
                    "The response was filtered due to the prompt triggering "
                    "Azure OpenAI's content management policy.",
                    code="content_filter",
                ),
            ),
            "blocked",
        ),
        (
            Reply(
                400,
                error_body(
                    "Input data may contain inappropriate content.", code="data_inspection_failed"
                ),
            ),
            "blocked",
        ),
        (
            Reply(
                400,
                error_body(
                    "This model's maximum context length is 4096 tokens. However, "
                    "you requested 9000 tokens.",
                    code="context_length_exceeded",
                ),
            ),
            "over_length",
        ),
        (Reply(400, error_body("Too many tokens: the prompt has 200000")), "over_length"),
        (Reply(body=ok_body("一个被截断的", finish_reason="length")), "length"),
    ],
    ids=[
        "finish-content-filter",
        "azure-400",
        "dashscope-400",
        "vllm-context",
        "too-many",
        "length",
    ],
)
def test_refusals_and_length_limits_become_cached_outcomes(
    scripted_openai: StartServer, tmp_path: Path, reply: Reply, outcome: str
) -> None:
    server = scripted_openai([reply])
    cache = RequestCache(tmp_path / "c.sqlite")
    first = _client(server, cache=cache).complete(REQUEST)
    assert first.outcome == outcome and not first.cached
    assert len(server.requests) == 1  # a fact, so never retried
    again = _client(server, cache=cache).complete(REQUEST)
    assert again.outcome == outcome and again.cached and len(server.requests) == 1


def test_a_missing_key_variable_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LW_TEST_PROVIDER_KEY", raising=False)
    config = LLMRoleConfig(
        model="m", base_url="http://127.0.0.1:9/v1", api_key_env="LW_TEST_PROVIDER_KEY"
    )
    with pytest.raises(MissingApiKeyError, match="LW_TEST_PROVIDER_KEY"):
        OpenAIClient(config)


def test_the_key_is_sent_but_never_logged_or_cached(
    scripted_openai: StartServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    secret = "sk-test-DO-NOT-STORE-4f1b2c"
    monkeypatch.setenv("LW_TEST_PROVIDER_KEY", secret)
    server = scripted_openai([Reply(500, "oops"), Reply(429, "later", {"Retry-After": "0"})])
    cache_path = tmp_path / "c.sqlite"
    cache = RequestCache(cache_path)
    caplog.set_level(logging.DEBUG)
    client = _client(server, cache=cache, api_key_env="LW_TEST_PROVIDER_KEY")
    result = client.complete(REQUEST)
    cache.close()
    assert result.outcome == "ok"
    assert all(seen.authorization == f"Bearer {secret}" for seen in server.requests)
    assert "retrying" in caplog.text  # the retries were logged ...
    assert secret not in caplog.text  # ... without the key
    assert secret not in client.name and secret not in repr(client)
    for file in tmp_path.glob("c.sqlite*"):  # database, WAL and shared-memory files
        assert secret.encode() not in file.read_bytes()
    with sqlite3.connect(cache_path) as db:
        assert db.execute("SELECT COUNT(*) FROM results").fetchone()[0] == 1


def test_without_a_key_variable_a_placeholder_is_sent(scripted_openai: StartServer) -> None:
    server = scripted_openai()
    _client(server).complete(REQUEST)
    assert server.requests[0].authorization == "Bearer EMPTY"


def test_other_validation_errors_are_not_mistaken_for_length_or_filter(
    scripted_openai: StartServer,
) -> None:
    server = scripted_openai([Reply(400, error_body("temperature must be <= 2"))])
    result = _client(server).complete(REQUEST)
    assert result.outcome == "error" and "temperature" in (result.error or "")


def test_a_server_that_wants_max_completion_tokens_gets_it(scripted_openai: StartServer) -> None:
    refusal = error_body(
        "Unsupported parameter: 'max_tokens' is not supported with this model. "
        "Use 'max_completion_tokens' instead.",
        code="unsupported_parameter",
    )
    server = scripted_openai([Reply(400, refusal)])
    client = _client(server, max_retries=0)
    assert client.complete(REQUEST).outcome == "ok"
    client.complete(REQUEST)
    sent = [seen.body for seen in server.requests]
    assert "max_tokens" in sent[0]
    assert [body.get("max_completion_tokens") for body in sent[1:]] == [16, 16]
