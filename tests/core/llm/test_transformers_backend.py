"""The local transformers backend on the tiny random Qwen2 model (CPU)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from lengthwise.llm.cache import RequestCache
from lengthwise.llm.factory import make_client
from lengthwise.llm.transformers_backend import TransformersClient
from lengthwise.llm.types import ChatRequest
from lengthwise.spec import LLMRoleConfig

pytestmark = pytest.mark.slow

REQUEST = ChatRequest.of(
    "你是小说编辑。", "请概括：宝玉初见黛玉。", prompt_version="t", max_tokens=6
)


def _client(model_dir: Path, cache: RequestCache | None = None, **settings: Any) -> Any:
    config = LLMRoleConfig(backend="transformers", model=str(model_dir), **settings)
    return make_client(config, cache)


@pytest.fixture(scope="module")
def resident_client(tiny_model_dir: Path) -> Any:
    """Keeps the model loaded for the module: clients on one folder share a live copy."""
    client = _client(tiny_model_dir)
    client.complete(REQUEST)
    return client


@pytest.fixture(scope="module")
def prompt_length(resident_client: Any) -> int:
    """Tokens in REQUEST's prompt, counted with the model's own tokenizer and template."""
    tokenizer = resident_client._load().tokenizer
    encoded = tokenizer.apply_chat_template(
        [{"role": m.role, "content": m.content} for m in REQUEST.messages],
        add_generation_prompt=True,
        tokenize=True,
        return_dict=True,
    )
    return len(encoded["input_ids"])


def test_greedy_generation_is_deterministic_across_loads(
    resident_client: Any, tiny_model_dir: Path
) -> None:
    # device="cpu" is a separate load from the resident client's device="auto" copy.
    config = LLMRoleConfig(backend="transformers", model=str(tiny_model_dir))
    fresh = TransformersClient(config, device="cpu")
    first, second = resident_client.complete(REQUEST), fresh.complete(REQUEST)
    assert fresh._loaded is not resident_client._loaded
    assert first.text and first.text == second.text
    # A random model never emits <|im_end|>: it stops at max_tokens.
    assert first.outcome == second.outcome == "length"
    assert first.usage == second.usage and first.model == str(tiny_model_dir)


def test_usage_counts_the_templated_prompt(resident_client: Any, prompt_length: int) -> None:
    result = resident_client.complete(REQUEST)
    assert (result.usage.prompt_tokens, result.usage.completion_tokens) == (prompt_length, 6)


def test_seeded_sampling_repeats_itself(resident_client: Any) -> None:
    sampled = dataclasses.replace(REQUEST, temperature=1.0, seed=3, max_tokens=12)
    assert resident_client.complete(sampled).text == resident_client.complete(sampled).text


def test_a_stop_string_ends_the_answer_before_it(resident_client: Any) -> None:
    client = resident_client
    full = client.complete(dataclasses.replace(REQUEST, max_tokens=12)).text
    stop = full[len(full) // 2 :][:3]
    assert stop.strip(), f"need a visible stop string in {full!r}"
    stopped = client.complete(dataclasses.replace(REQUEST, max_tokens=12, stop=(stop,)))
    assert stopped.outcome == "ok"
    assert stopped.text == full[: full.index(stop)]


def test_a_prompt_over_the_context_window_is_an_outcome(
    resident_client: Any, tiny_model_dir: Path, prompt_length: int
) -> None:
    result = _client(tiny_model_dir, context_window=prompt_length).complete(REQUEST)
    assert result.outcome == "over_length" and result.text == ""
    assert result.usage.prompt_tokens == prompt_length
    assert result.error is not None and str(prompt_length) in result.error


def test_the_model_config_limits_positions_too(resident_client: Any) -> None:
    digits = "0123456789" * 450  # one token per digit in Qwen's vocabulary: 4500 > 4096
    long = ChatRequest.of(None, digits, prompt_version="t", max_tokens=4)
    assert resident_client.complete(long).outcome == "over_length"


def test_generation_stops_at_the_end_of_the_window(
    resident_client: Any, tiny_model_dir: Path, prompt_length: int
) -> None:
    result = _client(tiny_model_dir, context_window=prompt_length + 2).complete(REQUEST)
    assert result.outcome == "length" and result.usage.completion_tokens == 2


def test_cached_answers_do_not_even_load_the_model(
    resident_client: Any, tiny_model_dir: Path, tmp_path: Path
) -> None:
    requests = [dataclasses.replace(REQUEST, prompt_version=f"v{i}") for i in range(3)]
    with RequestCache(tmp_path / "c.sqlite") as cache:
        first = _client(tiny_model_dir, cache).complete_many(requests)
        again = _client(tiny_model_dir, cache)
        second = again.complete_many(requests)
        assert again.inner._loaded is None  # no model load for a fully cached batch
        assert cache.hits == 3 and len(cache) == 3
    assert [r.text for r in second] == [r.text for r in first]
    assert all(r.cached for r in second) and not any(r.cached for r in first)


def test_a_folder_without_a_model_is_named(tmp_path: Path) -> None:
    config = LLMRoleConfig(backend="transformers", model=str(tmp_path / "nothing-here"))
    with pytest.raises(FileNotFoundError, match="nothing-here"):
        TransformersClient(config)
