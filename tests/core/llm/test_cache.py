"""The request cache key and store: what changes an answer changes the key, nothing else does."""

from __future__ import annotations

import dataclasses
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from lengthwise.llm.cache import RequestCache, request_key
from lengthwise.llm.types import ChatRequest, ChatResult, Message, Usage
from lengthwise.spec import LLMRoleConfig

CONFIG = LLMRoleConfig(backend="openai", model="qwen2.5-7b", base_url="http://127.0.0.1:8000/v1")
REQUEST = ChatRequest.of("You summarise.", "第一回 …", prompt_version="draft-zh-v1")

# Each entry changes one keyed field, in the config or in the request.
KEYED_CONFIG_CHANGES: list[dict[str, Any]] = [
    {"backend": "transformers"},
    {"model": "qwen2.5-14b"},
    {"revision": "abc123"},
    {"base_url": "http://127.0.0.1:8001/v1"},
    {"base_url": "http://127.0.0.1:8000/v2"},
]
KEYED_REQUEST_CHANGES: list[dict[str, Any]] = [
    {"messages": (Message("system", "You summarise."), Message("user", "第二回 …"))},
    {"messages": (Message("user", "You summarise."), Message("user", "第一回 …"))},
    {"messages": (Message("user", "第一回 …"),)},
    {"max_tokens": 513},
    {"temperature": 0.7},
    {"top_p": 0.9},
    {"seed": 1},
    {"seed": None},
    {"stop": ("\n\n",)},
    {"prompt_version": "draft-zh-v2"},
]
# Settings that change how a request is sent, never its answer.
UNKEYED_CONFIG_CHANGES: list[dict[str, Any]] = [
    {"timeout_seconds": 5.0},
    {"concurrency": 32},
    {"requests_per_second": 0.5},
    {"max_retries": 0},
    {"api_key_env": "SOME_PROVIDER_KEY"},
    {"price_per_million_input": 2.0, "price_per_million_output": 6.0},
    {"max_tokens": 64, "temperature": 1.0, "seed": 9},  # role defaults; the request carries its own
    {"base_url": "HTTP://127.0.0.1:8000/v1/"},  # the same endpoint, spelled differently
]


def _config(**changes: Any) -> LLMRoleConfig:
    return CONFIG.model_copy(update=changes)


@pytest.mark.parametrize("changes", KEYED_CONFIG_CHANGES, ids=str)
def test_changing_a_keyed_config_field_changes_the_key(changes: dict[str, Any]) -> None:
    assert request_key(_config(**changes), REQUEST) != request_key(CONFIG, REQUEST)


@pytest.mark.parametrize("changes", KEYED_REQUEST_CHANGES, ids=str)
def test_changing_a_keyed_request_field_changes_the_key(changes: dict[str, Any]) -> None:
    changed = dataclasses.replace(REQUEST, **changes)
    assert request_key(CONFIG, changed) != request_key(CONFIG, REQUEST)


@pytest.mark.parametrize("changes", UNKEYED_CONFIG_CHANGES, ids=str)
def test_transport_settings_do_not_change_the_key(changes: dict[str, Any]) -> None:
    assert request_key(_config(**changes), REQUEST) == request_key(CONFIG, REQUEST)


def test_request_metadata_does_not_change_the_key() -> None:
    tagged = dataclasses.replace(REQUEST, metadata=(("sample", "L-0003"),))
    assert request_key(CONFIG, tagged) == request_key(CONFIG, REQUEST)


def test_integer_and_float_parameters_give_one_key() -> None:
    as_int = dataclasses.replace(REQUEST, temperature=0, top_p=1)
    assert request_key(CONFIG, as_int) == request_key(CONFIG, REQUEST)


def test_a_local_model_folder_is_keyed_by_its_absolute_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    relative = LLMRoleConfig(backend="transformers", model="models/tiny")
    absolute = LLMRoleConfig(backend="transformers", model=str(tmp_path / "models" / "tiny"))
    assert request_key(relative, REQUEST) == request_key(absolute, REQUEST)


def test_keys_are_sha256_hex() -> None:
    key = request_key(CONFIG, REQUEST)
    assert len(key) == 64 and int(key, 16) >= 0


def _result(outcome: Any, text: str = "答案") -> ChatResult:
    return ChatResult(text, outcome, Usage(120, 30), "qwen2.5-7b", latency_seconds=1.5)


def test_stored_answers_come_back_marked_cached_and_survive_reopening(tmp_path: Path) -> None:
    path = tmp_path / "cache" / "requests.sqlite"
    with RequestCache(path) as cache:
        assert cache.get("k") is None
        assert cache.put("k", _result("length"), prompt_version="v1")
    with RequestCache(path) as cache:
        hit = cache.get("k")
        assert hit is not None
        assert (hit.text, hit.outcome, hit.usage, hit.model) == (
            "答案",
            "length",
            Usage(120, 30),
            "qwen2.5-7b",
        )
        assert hit.cached and hit.error is None
        assert (cache.hits, cache.misses, len(cache)) == (1, 0, 1)


@pytest.mark.parametrize("outcome", ["ok", "length", "blocked", "over_length"])
def test_outcomes_that_are_facts_are_cached(tmp_path: Path, outcome: str) -> None:
    with RequestCache(tmp_path / "c.sqlite") as cache:
        assert cache.put("k", _result(outcome))
        hit = cache.get("k")
        assert hit is not None and hit.outcome == outcome


def test_errors_are_never_cached(tmp_path: Path) -> None:
    with RequestCache(tmp_path / "c.sqlite") as cache:
        failed = dataclasses.replace(_result("error", ""), error="HTTP 503")
        assert not cache.put("k", failed)
        assert cache.get("k") is None and len(cache) == 0


def test_the_database_uses_write_ahead_logging(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    RequestCache(path).close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_threads_can_share_one_cache(tmp_path: Path) -> None:
    cache = RequestCache(tmp_path / "c.sqlite")
    errors: list[BaseException] = []

    def work(worker: int) -> None:
        try:
            for i in range(50):
                cache.put(f"{worker}-{i}", _result("ok", f"{worker}/{i}"))
                hit = cache.get(f"{worker}-{i}")
                assert hit is not None and hit.text == f"{worker}/{i}"
        except BaseException as error:  # surfaced below
            errors.append(error)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert len(cache) == 400 and cache.hits == 400
    cache.close()


def test_a_file_that_is_not_a_cache_gives_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "requests.sqlite"
    path.write_bytes(b"not a database" * 100)
    with pytest.raises(ValueError, match=r"requests\.sqlite: not a usable request cache"):
        RequestCache(path)


def test_an_answer_edited_in_the_cache_is_asked_again(tmp_path: Path) -> None:
    """A row rewritten after it was stored (a poisoned or damaged cache) no longer
    matches its check: it is discarded, not served as the model's answer."""
    path = tmp_path / "llm.sqlite"
    with RequestCache(path) as cache:
        cache.put("k1", ChatResult("the model's answer", "ok", Usage(3, 4), "m"))
        cache.put("k2", ChatResult("another answer", "ok", Usage(3, 4), "m"))
    with sqlite3.connect(path) as db:
        (raw,) = db.execute("SELECT result_json FROM results WHERE key = 'k1'").fetchone()
        db.execute(
            "UPDATE results SET result_json = ? WHERE key = 'k1'",
            (raw.replace("the model's answer", "a planted answer"),),
        )
    with RequestCache(path) as cache:
        assert cache.get("k1") is None
        assert cache.discarded == 1 and "k1" not in cache
        answer = cache.get("k2")
        assert answer is not None and answer.text == "another answer"
