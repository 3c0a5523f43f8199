"""The model registry: providers by name, built lazily, behind one request cache."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from lengthwise.extras import MissingExtraError
from lengthwise.llm.cache import RequestCache
from lengthwise.llm.registry import build_provider, make_client, provider_names
from lengthwise.llm.scripted import ScriptedClient
from lengthwise.llm.types import ChatRequest, ChatResult
from lengthwise.spec import LLMRoleConfig

HEAVY = ("torch", "transformers", "openai", "vllm")


def test_every_backend_is_a_registered_provider() -> None:
    assert set(provider_names()) >= {
        "openai",
        "transformers",
        "vllm",
        "vllm-server",
        "baseline",
        "scripted",
    }


def test_importing_the_llm_layer_imports_no_provider_library() -> None:
    code = (
        "import json, sys\n"
        "import lengthwise.llm, lengthwise.llm.registry, lengthwise.llm.factory\n"
        f"print(json.dumps([m for m in {list(HEAVY)!r} if m in sys.modules]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []


def test_an_unknown_provider_is_named_with_the_known_ones() -> None:
    with pytest.raises(ValueError, match=r"'nope'.*scripted"):
        build_provider("nope", LLMRoleConfig(model="m"))


def test_a_missing_extra_is_the_one_line_install_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "vllm" else real(name, *a)
    )
    with pytest.raises(MissingExtraError, match=r"lengthwise\[vllm\]"):
        build_provider("vllm", LLMRoleConfig(model="m"))


def test_the_cache_wraps_any_provider_once(tmp_path: Path) -> None:
    config = LLMRoleConfig(model="m")
    request = ChatRequest.of(None, "hello\nworld", prompt_version="t")
    with RequestCache(tmp_path / "c.sqlite") as cache:
        first = make_client(config, cache, provider="scripted")
        assert first.complete(request).text == "hello"
        assert first.complete(request).cached  # the second ask is a hit
        again = make_client(config, cache, provider="scripted")
        results = again.complete_many([request, request])
    assert all(r.cached for r in results)
    assert isinstance(first.inner, ScriptedClient) and len(first.inner.calls) == 1  # type: ignore[attr-defined]
    assert isinstance(again.inner, ScriptedClient) and again.inner.calls == []  # type: ignore[attr-defined]


def test_a_batching_provider_gets_only_the_misses(tmp_path: Path) -> None:
    class Batching(ScriptedClient):
        batches = True

    requests = [ChatRequest.of(None, f"q{i}", prompt_version="t") for i in range(4)]
    config = LLMRoleConfig(model="m")
    seen: list[int] = []
    with RequestCache(tmp_path / "c.sqlite") as cache:
        make_client(config, cache, provider="scripted").complete_many(requests[:2])
        from lengthwise.llm.cached import CachedClient
        from lengthwise.llm.generation import identity_of

        inner = Batching()
        client = CachedClient(inner, cache, identity_of(config, provider="scripted"))
        results = client.complete_many(requests, on_result=lambda i, r: seen.append(i))
    assert [r.text for r in results] == ["q0", "q1", "q2", "q3"]
    assert [r.messages[-1].content for r in inner.calls] == ["q2", "q3"]
    assert sorted(seen) == [0, 1, 2, 3]


def test_chat_template_switch_is_keyed(tmp_path: Path) -> None:
    def answer(request: ChatRequest) -> ChatResult:
        return ChatResult("x", "ok")

    config = LLMRoleConfig(model="m")
    request = ChatRequest.of(None, "q", prompt_version="t")
    with RequestCache(tmp_path / "c.sqlite") as cache:
        on = make_client(config, cache, provider="scripted", script=answer)
        off = make_client(
            config, cache, provider="scripted", script=answer, key={"chat_template": False}
        )
        on.complete(request)
        assert not off.complete(request).cached
