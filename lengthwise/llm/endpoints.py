"""Several OpenAI-compatible servers of one model behind one role: who takes a request.

A role lists its servers in `endpoints` (each with its own concurrency limit), or names
one `base_url`. A request goes to the least-loaded live endpoint with a free slot; a
request that fails on an endpoint (connection refused, timeout, 5xx, 429) marks that
endpoint down for a cool-down that doubles with each failure in a row, and is sent at
once to another live endpoint it has not failed on. Only when every endpoint has failed
it does the request wait (the client's backoff) and try them all again. An endpoint
whose cool-down is over is tried again; one answer brings it back.

Which endpoint answered is not part of the request cache key (generation.identity_of
keys no URL for an `endpoints` list): replicas of one model give the same answer.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from lengthwise.spec import LLMRoleConfig

COOL_DOWN_SECONDS: Final = 2.0  # first failure; doubles per failure in a row
MAX_COOL_DOWN_SECONDS: Final = 60.0


@dataclass
class Endpoint:
    index: int
    base_url: str | None  # None: the provider's default (api.openai.com)
    limit: int
    api_key_env: str | None
    client: Any = None  # the openai.OpenAI client of this endpoint
    in_flight: int = 0
    down_until: float = 0.0
    failures_in_row: int = 0
    answered: int = 0
    failed: int = 0


def endpoints_of(config: LLMRoleConfig) -> list[Endpoint]:
    """The role's endpoints: its `endpoints` list, or its one `base_url`."""
    if not config.endpoints:
        return [Endpoint(0, config.base_url, config.concurrency, config.api_key_env)]
    return [
        Endpoint(
            i,
            e.base_url,
            e.concurrency or config.concurrency,
            e.api_key_env or config.api_key_env,
        )
        for i, e in enumerate(config.endpoints)
    ]


class EndpointPool:
    """Thread-safe choice of endpoint per attempt, with per-endpoint concurrency limits."""

    def __init__(
        self, endpoints: Sequence[Endpoint], clock: Callable[[], float] = time.monotonic
    ) -> None:
        if not endpoints:
            raise ValueError("an endpoint pool needs at least one endpoint")
        self.endpoints = list(endpoints)
        self._clock = clock
        self._changed = threading.Condition()

    @property
    def total_limit(self) -> int:
        return sum(e.limit for e in self.endpoints)

    def acquire(self, avoid: frozenset[int] = frozenset()) -> Endpoint:
        """A slot on the best endpoint for a request that failed on `avoid` (indices)."""
        with self._changed:
            while True:
                chosen = self._choose(avoid)
                if chosen is not None:
                    chosen.in_flight += 1
                    return chosen
                self._changed.wait(timeout=0.5)

    def release(self, endpoint: Endpoint, *, healthy: bool, cool_down: float | None = None) -> None:
        """Give the slot back; `healthy` False marks the endpoint down for a while."""
        with self._changed:
            endpoint.in_flight -= 1
            if healthy:
                endpoint.answered += 1
                endpoint.failures_in_row, endpoint.down_until = 0, 0.0
            else:
                endpoint.failed += 1
                endpoint.failures_in_row += 1
                pause = COOL_DOWN_SECONDS * 2 ** (endpoint.failures_in_row - 1)
                pause = max(pause, cool_down or 0.0)
                endpoint.down_until = self._clock() + min(pause, MAX_COOL_DOWN_SECONDS)
            self._changed.notify_all()

    def another_live(self, tried: frozenset[int]) -> bool:
        """Whether a live endpoint remains that this request has not failed on."""
        with self._changed:
            now = self._clock()
            return any(e.index not in tried and e.down_until <= now for e in self.endpoints)

    def _choose(self, avoid: frozenset[int]) -> Endpoint | None:
        now = self._clock()
        live = [e for e in self.endpoints if e.down_until <= now]
        if live:
            # Wait for a live endpoint's slot rather than send to one that is down.
            fresh = [e for e in live if e.index not in avoid] or live
            free = [e for e in fresh if e.in_flight < e.limit]
            return min(free, key=_load) if free else None
        # Every endpoint is down: the one back soonest (the caller has backed off).
        free = [e for e in self.endpoints if e.in_flight < e.limit]
        return min(free, key=lambda e: e.down_until) if free else None

    def summary(self) -> list[dict[str, Any]]:
        with self._changed:
            return [
                {"base_url": e.base_url, "answered": e.answered, "failed": e.failed}
                for e in self.endpoints
            ]


def _load(endpoint: Endpoint) -> tuple[float, int]:
    return (endpoint.in_flight / endpoint.limit, endpoint.index)
