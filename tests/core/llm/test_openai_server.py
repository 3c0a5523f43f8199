"""The OpenAI backend against a real OpenAI-compatible server: `transformers serve` on 127.0.0.1
with the tiny random model. The server's access log tells how many calls really happened."""

from __future__ import annotations

from pathlib import Path

import pytest

from lengthwise.llm.cache import RequestCache
from lengthwise.llm.factory import make_client
from lengthwise.llm.types import ChatRequest, ChatResult
from tests.fixtures.llm_server import LocalOpenAIServer

pytestmark = pytest.mark.slow


def _requests(tag: str, count: int) -> list[ChatRequest]:
    return [
        ChatRequest.of("你是小说编辑。", f"{tag}: 第{i}回的梗概", prompt_version=tag, max_tokens=4)
        for i in range(count)
    ]


def test_answers_carry_the_servers_token_counts(
    openai_server: LocalOpenAIServer, tiny_model_dir: Path
) -> None:
    from transformers import AutoTokenizer

    request = _requests("usage", 1)[0]
    result = make_client(openai_server.role_config()).complete(request)
    # A random model never says <|im_end|>, so it runs into max_tokens.
    assert result.outcome == "length" and result.usage.completion_tokens == 4
    tokenizer = AutoTokenizer.from_pretrained(tiny_model_dir)
    prompt = tokenizer.apply_chat_template(
        [{"role": m.role, "content": m.content} for m in request.messages],
        add_generation_prompt=True,
        tokenize=True,
        return_dict=True,
    )
    assert result.usage.prompt_tokens == len(prompt["input_ids"])


def test_a_rerun_with_the_cache_sends_no_request(
    openai_server: LocalOpenAIServer, tmp_path: Path
) -> None:
    requests = _requests("rerun", 5)
    config = openai_server.role_config(concurrency=2)
    before = openai_server.requests_seen()
    with RequestCache(tmp_path / "cache.sqlite") as cache:
        first = make_client(config, cache).complete_many(requests)
    assert openai_server.requests_seen() - before == 5
    assert not any(r.cached for r in first)

    with RequestCache(tmp_path / "cache.sqlite") as cache:
        second = make_client(config, cache).complete_many(requests)
        assert cache.hits == 5 and cache.misses == 0
    assert openai_server.requests_seen() - before == 5  # zero new requests
    assert all(r.cached for r in second)
    assert [r.text for r in second] == [r.text for r in first]


def test_a_run_killed_halfway_repeats_no_finished_call(
    openai_server: LocalOpenAIServer, tmp_path: Path
) -> None:
    requests = _requests("killed", 8)
    config = openai_server.role_config(concurrency=2)
    persisted: dict[int, ChatResult] = {}

    def persist_then_die_at_half(index: int, result: ChatResult) -> None:
        persisted[index] = result
        if len(persisted) == len(requests) // 2:
            raise KeyboardInterrupt  # as if the user pressed Ctrl-C here

    before = openai_server.requests_seen()
    with RequestCache(tmp_path / "cache.sqlite") as cache, pytest.raises(KeyboardInterrupt):
        make_client(config, cache).complete_many(requests, on_result=persist_then_die_at_half)
    first_run = openai_server.requests_seen() - before
    assert len(persisted) == 4
    with RequestCache(tmp_path / "cache.sqlite") as cache:
        finished = len(cache)  # persisted ones plus any that were in flight at the interrupt
        assert 4 <= finished < len(requests) and first_run == finished

        results = make_client(config, cache).complete_many(requests)
    second_run = openai_server.requests_seen() - before - first_run
    assert second_run == len(requests) - finished  # only the remaining requests
    assert first_run + second_run == len(requests)  # every request answered exactly once
    assert all(results[i].text == persisted[i].text for i in persisted)
    assert sum(r.cached for r in results) == finished
