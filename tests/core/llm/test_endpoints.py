"""Many endpoints for one role: two real server processes, one killed halfway."""

from __future__ import annotations

import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from lengthwise.llm import ChatRequest, RequestCache, make_client
from lengthwise.llm.endpoints import EndpointPool, endpoints_of
from lengthwise.spec import LLMRoleConfig
from lengthwise.spec_scaling import EndpointConfig
from tests.fixtures.endpoint_server import answer_for

SERVER = Path(__file__).resolve().parents[2] / "fixtures" / "endpoint_server.py"
Started = Callable[..., tuple[str, subprocess.Popen[bytes], Path]]


@pytest.fixture
def endpoint_server(tmp_path: Path) -> Iterator[Started]:
    """Starts `endpoint_server.py` processes; returns (base_url, process, answers file)."""
    processes: list[subprocess.Popen[bytes]] = []

    def start(name: str, *extra: str) -> tuple[str, subprocess.Popen[bytes], Path]:
        port_file, answers = tmp_path / f"{name}.port", tmp_path / f"{name}.answers"
        command = [sys.executable, str(SERVER), "--port-file", str(port_file)]
        process = subprocess.Popen([*command, "--answers", str(answers), *extra])
        processes.append(process)
        deadline = time.monotonic() + 30
        while not port_file.exists():
            assert process.poll() is None and time.monotonic() < deadline, "server did not start"
            time.sleep(0.05)
        return f"http://127.0.0.1:{port_file.read_text()}/v1", process, answers

    yield start
    for process in processes:
        process.kill()
        process.wait(timeout=10)


def answered(path: Path) -> list[str]:
    return path.read_text().split() if path.exists() else []


def requests(n: int) -> list[ChatRequest]:
    return [ChatRequest.of(None, f"prompt {i}", prompt_version="t-v1") for i in range(n)]


def test_dead_endpoint_requests_finish_elsewhere_exactly_once(
    endpoint_server: Started, tmp_path: Path
) -> None:
    url_a, process_a, answers_a = endpoint_server("a", "--die-after", "8")
    url_b, _, answers_b = endpoint_server("b")
    config = LLMRoleConfig(
        model="m",
        endpoints=[EndpointConfig(base_url=url_a, concurrency=3), url_b],  # type: ignore[list-item]
        concurrency=3,
        max_retries=1,
        timeout_seconds=20,
    )
    batch = requests(40)
    with RequestCache(tmp_path / "llm.sqlite") as cache:
        results = make_client(config, cache).complete_many(batch)
        assert [r.outcome for r in results] == ["ok"] * 40
        assert [r.text for r in results] == [answer_for(f"prompt {i}") for i in range(40)]
        assert process_a.wait(timeout=10) == -9  # it died halfway, SIGKILLed
        served = Counter(answered(answers_a) + answered(answers_b))
        assert len(answered(answers_a)) == 8 and len(served) == 40
        assert set(served.values()) == {1}, "a request was answered twice"
        assert len(cache) == 40  # one cached answer per request, none twice
        # Which endpoint answered is not keyed: B alone, or the list reordered, hits all.
        for again in (LLMRoleConfig(model="m", endpoints=[url_b]), config):  # type: ignore[list-item]
            rerun = make_client(again, cache).complete_many(batch)
            assert all(r.cached for r in rerun)
        assert len(answered(answers_b)) == 32


def test_identical_requests_in_flight_are_paid_once(
    endpoint_server: Started, tmp_path: Path
) -> None:
    url_a, _, answers_a = endpoint_server("a", "--delay", "0.3")
    url_b, _, answers_b = endpoint_server("b", "--delay", "0.3")
    config = LLMRoleConfig(model="m", endpoints=[url_a, url_b], concurrency=4)  # type: ignore[list-item]
    same = requests(1) * 6 + requests(3)  # six copies of one prompt, sent concurrently
    with RequestCache(tmp_path / "llm.sqlite") as cache:
        results = make_client(config, cache).complete_many(same)
    assert [r.text for r in results[:6]] == [answer_for("prompt 0")] * 6
    served = Counter(answered(answers_a) + answered(answers_b))
    assert sorted(served.values()) == [1, 1, 1]


def test_per_endpoint_limits_and_least_loaded_choice() -> None:
    config = LLMRoleConfig(
        model="m",
        endpoints=[EndpointConfig(base_url="http://a/v1", concurrency=1), "http://b/v1"],  # type: ignore[list-item]
        concurrency=2,
    )
    pool = EndpointPool(endpoints_of(config))
    assert pool.total_limit == 3
    taken = [pool.acquire().base_url for _ in range(3)]
    assert Counter(taken) == {"http://a/v1": 1, "http://b/v1": 2}
    # A failure marks the endpoint down: the next request avoids it.
    first = pool.endpoints[0]
    pool.release(first, healthy=False)
    pool.release(pool.endpoints[1], healthy=True)
    assert pool.acquire().base_url == "http://b/v1"
    assert not pool.another_live(frozenset({1}))


def test_base_url_and_endpoints_together_are_refused() -> None:
    with pytest.raises(ValueError, match="base_url or endpoints"):
        LLMRoleConfig(model="m", base_url="http://a/v1", endpoints=["http://b/v1"])  # type: ignore[list-item]
