"""Concurrency, rate limiting and result order of `complete_many`.

Against `ScriptedOpenAIServer` (a real HTTP server on 127.0.0.1 that can hold requests
open and record when each arrived), so overlap and spacing are seen from the server side.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from lengthwise.llm.openai_backend import OpenAIClient
from lengthwise.llm.pacing import RateLimiter
from lengthwise.llm.types import ChatRequest, ChatResult
from lengthwise.spec import LLMRoleConfig
from tests.fixtures.scripted_openai import Reply, ScriptedOpenAIServer, ok_body

StartServer = Callable[..., ScriptedOpenAIServer]


def _requests(count: int) -> list[ChatRequest]:
    return [ChatRequest.of(None, f"chapter {i}", prompt_version="t") for i in range(count)]


def _echo(_number: int, body: dict[str, Any]) -> Reply:
    return Reply(body=ok_body("echo: " + body["messages"][-1]["content"]))


def test_requests_overlap_up_to_the_concurrency_setting(scripted_openai: StartServer) -> None:
    # Each request is held until four are in flight at once (or 10 s pass): with a
    # concurrency of 4 the barrier opens; run one at a time, it would time out.
    barrier = threading.Barrier(4, timeout=10)

    def held(number: int, body: dict[str, Any]) -> Reply:
        if number < 8:
            barrier.wait()
        return _echo(number, body)

    server = scripted_openai(held)
    config = LLMRoleConfig(model="m", base_url=server.base_url, concurrency=4, max_retries=0)
    results = OpenAIClient(config).complete_many(_requests(8))
    assert [r.outcome for r in results] == ["ok"] * 8
    assert server.max_in_flight == 4  # overlapped, and never more than the setting


def test_results_come_back_in_input_order_and_are_reported_as_they_finish(
    scripted_openai: StartServer,
) -> None:
    # Later requests answer sooner, so completion order differs from input order.
    def slower_first(number: int, body: dict[str, Any]) -> Reply:
        index = int(body["messages"][-1]["content"].split()[-1])
        return Reply(body=ok_body(f"echo: chapter {index}"), delay=0.1 * (6 - index))

    server = scripted_openai(slower_first)
    config = LLMRoleConfig(model="m", base_url=server.base_url, concurrency=6)
    reported: list[tuple[int, ChatResult]] = []
    results = OpenAIClient(config).complete_many(
        _requests(6), on_result=lambda i, r: reported.append((i, r))
    )
    assert [r.text for r in results] == [f"echo: chapter {i}" for i in range(6)]
    assert sorted(i for i, _ in reported) == list(range(6))
    assert all(results[i] is result for i, result in reported)
    assert reported[0][0] != 0  # the slowest (first) request did not hold back the others


def test_request_starts_are_spaced_by_the_rate_limit(scripted_openai: StartServer) -> None:
    server = scripted_openai(_echo)
    config = LLMRoleConfig(
        model="m", base_url=server.base_url, concurrency=4, requests_per_second=10
    )
    OpenAIClient(config).complete_many(_requests(6))
    starts = sorted(seen.started for seen in server.requests)
    # Five intervals of 0.1 s at least, though four workers were free to go at once.
    # (A lower bound only: a slow machine can add time but never remove it.)
    assert starts[-1] - starts[0] >= 5 * 0.1 - 0.05


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


def test_the_rate_limiter_hands_out_one_slot_per_interval() -> None:
    clock = FakeClock()
    limiter = RateLimiter(4.0, clock=clock, sleep=clock.sleep)
    starts = []
    for _ in range(5):
        limiter.acquire()
        starts.append(clock.now)
    assert starts == [100.0, 100.25, 100.5, 100.75, 101.0]
    clock.now += 10  # idle time does not build up a burst beyond one request
    limiter.acquire()
    limiter.acquire()
    assert clock.sleeps[-1] == 0.25


def test_no_rate_limit_means_no_waiting() -> None:
    clock = FakeClock()
    limiter = RateLimiter(None, clock=clock, sleep=clock.sleep)
    for _ in range(3):
        limiter.acquire()
    assert clock.sleeps == []
