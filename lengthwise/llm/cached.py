"""The request cache, applied once around any provider.

Providers only generate; `CachedClient` answers from the cache what it holds and sends
the rest. Per-request providers (`batches` false: OpenAI, transformers, baselines) run
through `run_batch` with the lookup and the store inside each call, so an answer that
finished in flight when a batch was interrupted is still stored. Batching providers
(`batches` true: the vLLM engine) get all misses at once and each answer is stored as
it is delivered.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from lengthwise.llm.batch import run_batch
from lengthwise.llm.cache import RequestCache
from lengthwise.llm.generation import generation_config
from lengthwise.llm.types import ChatRequest, ChatResult, LLMClient, ResultCallback


class CachedClient:
    """`inner` behind `cache`, keyed by `identity` (see `generation.identity_of`) + request.

    `identity` is fixed when the client is built, so a provider whose address changes
    per launch (a vLLM server on a free port) keys on what it runs, not where.
    """

    def __init__(self, inner: LLMClient, cache: RequestCache, identity: dict[str, Any]) -> None:
        self.inner = inner
        self.cache = cache
        self.identity = dict(identity)
        # Keys being answered now: a second identical request waits for the first's
        # answer instead of paying for the same call (threads spread over endpoints).
        self._in_flight: dict[str, threading.Event] = {}
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return self.inner.name

    def key(self, request: ChatRequest) -> str:
        return generation_config(self.identity, request).key()

    def complete(self, request: ChatRequest) -> ChatResult:
        """One answer: from the cache if present, else from the provider (then cached)."""
        key = self.key(request)
        while True:
            hit = self.cache.get(key)
            if hit is not None:
                return hit
            with self._lock:
                answering = self._in_flight.get(key)
                if answering is None:
                    self._in_flight[key] = threading.Event()
            if answering is None:
                break
            answering.wait()  # then read the cache again (errors are not cached)
        try:
            # The previous owner may have stored it between our lookup and the lock.
            stored = self.cache.get(key) if key in self.cache else None
            result = stored or self.inner.complete(request)
            if stored is None:
                self.cache.put(key, result, prompt_version=request.prompt_version)
        finally:
            with self._lock:
                self._in_flight.pop(key).set()
        return result

    def complete_many(
        self, requests: Sequence[ChatRequest], *, on_result: ResultCallback | None = None
    ) -> list[ChatResult]:
        if not getattr(self.inner, "batches", False):
            concurrency = int(getattr(self.inner, "concurrency", 1))
            return run_batch(requests, self.complete, concurrency=concurrency, on_result=on_result)
        return self._complete_batched(requests, on_result)

    def _complete_batched(
        self, requests: Sequence[ChatRequest], on_result: ResultCallback | None
    ) -> list[ChatResult]:
        results: list[ChatResult | None] = [None] * len(requests)
        misses: list[int] = []
        for index, request in enumerate(requests):
            hit = self.cache.get(self.key(request))
            if hit is None:
                misses.append(index)
                continue
            results[index] = hit
            if on_result is not None:
                on_result(index, hit)

        def store(position: int, result: ChatResult) -> None:
            index = misses[position]
            request = requests[index]
            self.cache.put(self.key(request), result, prompt_version=request.prompt_version)
            results[index] = result
            if on_result is not None:
                on_result(index, result)

        self.inner.complete_many([requests[i] for i in misses], on_result=store)
        return [result for result in results if result is not None]
