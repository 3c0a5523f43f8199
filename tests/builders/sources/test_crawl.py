"""Crawler against a local web site: robots.txt, spacing, retries, limits and the cache."""

from __future__ import annotations

import itertools
import socket
import time
from pathlib import Path
from typing import Any

import pytest

from lengthwise.builders.sources.crawl import Crawler, FetchError
from lengthwise.spec import CrawlConfig

FAST = {"requests_per_second_per_host": 20.0, "backoff_seconds": 0.01, "timeout_seconds": 2.0}


def crawler(tmp_path: Path, **settings: Any) -> Crawler:
    return Crawler(CrawlConfig(**{**FAST, **settings}), tmp_path / "http-cache")


def gaps(times: list[float]) -> list[float]:
    return [later - earlier for earlier, later in itertools.pairwise(times)]


def test_fetch_returns_body_and_sends_user_agent(tmp_path: Path, site: Any) -> None:
    url = site.add("/book.txt", site.Reply(body=b"text", headers={"Content-Type": "text/plain"}))
    client = crawler(tmp_path, user_agent="test-agent/9.9 (+mailto:me@example.org)")
    page = client.fetch(url)
    assert (page.body, page.status, page.content_type) == (b"text", 200, "text/plain")
    assert page.from_cache is False
    assert {hit.user_agent for hit in site.hits} == {"test-agent/9.9 (+mailto:me@example.org)"}


def test_robots_disallow_is_obeyed_without_requesting_the_page(tmp_path: Path, site: Any) -> None:
    site.add("/robots.txt", site.Reply(body=b"User-agent: *\nDisallow: /private/\n"))
    private = site.add("/private/book.txt", site.Reply(body=b"secret"))
    public = site.add("/public/book.txt", site.Reply(body=b"open"))
    client = crawler(tmp_path)

    with pytest.raises(FetchError, match=r"disallowed by robots\.txt") as caught:
        client.fetch(private)
    assert caught.value.key == "robots-disallowed"
    assert site.count("/private/book.txt") == 0
    assert client.fetch(public).body == b"open"
    assert site.count("/robots.txt") == 1  # asked once per site


def test_robots_rules_for_our_agent_apply(tmp_path: Path, site: Any) -> None:
    rules = b"User-agent: lengthwise\nDisallow: /\n\nUser-agent: *\nDisallow:\n"
    site.add("/robots.txt", site.Reply(body=rules))
    url = site.add("/book.txt", site.Reply(body=b"x"))
    with pytest.raises(FetchError, match="robots"):
        crawler(tmp_path).fetch(url)


def test_crawl_delay_spaces_requests(tmp_path: Path, site: Any) -> None:
    site.add("/robots.txt", site.Reply(body=b"User-agent: *\nCrawl-delay: 0.25\n"))
    urls = [site.add(f"/page{n}", site.Reply(body=b"x")) for n in range(3)]
    client = crawler(tmp_path)  # 20 req/s alone would allow 0.05 s
    for url in urls:
        client.fetch(url)
    assert min(gaps(site.times("/page"))) >= 0.25


def test_rate_limit_spaces_requests_to_one_host(tmp_path: Path, site: Any) -> None:
    urls = [site.add(f"/page{n}", site.Reply(body=b"x")) for n in range(4)]
    client = crawler(tmp_path, requests_per_second_per_host=10.0)
    started = time.monotonic()
    for url in urls:
        client.fetch(url)
    spacing = gaps(site.times("/"))  # robots.txt included: it is a request too
    assert min(spacing) >= 0.1
    assert time.monotonic() - started < 2.0


def test_retries_503_then_succeeds(tmp_path: Path, site: Any) -> None:
    url = site.add(
        "/flaky.txt", site.Reply(status=503), site.Reply(status=503), site.Reply(body=b"done")
    )
    client = crawler(tmp_path, max_retries=3)
    assert client.fetch(url).body == b"done"
    assert site.count("/flaky.txt") == 3
    assert client.requests_made == 4  # robots.txt + three tries


def test_gives_up_after_max_retries(tmp_path: Path, site: Any) -> None:
    url = site.add("/down.txt", site.Reply(status=502))
    with pytest.raises(FetchError, match=r"HTTP 502.*gave up after 3 attempt") as caught:
        crawler(tmp_path, max_retries=2).fetch(url)
    assert caught.value.key == "fetch-failed"
    assert site.count("/down.txt") == 3


def test_404_fails_at_once_with_a_clear_error(tmp_path: Path, site: Any) -> None:
    with pytest.raises(FetchError, match="HTTP 404 Not Found") as caught:
        crawler(tmp_path, max_retries=3).fetch(site.url + "/missing.txt")
    assert caught.value.key == "not-found"
    assert caught.value.url == site.url + "/missing.txt"
    assert site.count("/missing.txt") == 1


def test_429_retry_after_is_honoured_but_capped(tmp_path: Path, site: Any) -> None:
    url = site.add(
        "/busy.txt", site.Reply(status=429, headers={"Retry-After": "30"}), site.Reply(body=b"ok")
    )
    client = Crawler(
        CrawlConfig(**{**FAST, "backoff_seconds": 0.0}),
        tmp_path / "cache",
        max_retry_after_seconds=0.3,
    )
    assert client.fetch(url).body == b"ok"
    (wait,) = gaps(site.times("/busy.txt"))
    assert 0.3 <= wait < 3.0


def test_size_cap_from_content_length(tmp_path: Path, site: Any) -> None:
    url = site.add("/big.txt", site.Reply(body=b"x" * 5000))
    with pytest.raises(FetchError, match="larger than 1000 bytes") as caught:
        crawler(tmp_path, max_bytes=1000).fetch(url)
    assert caught.value.key == "too-large"
    assert site.count("/big.txt") == 1  # not retried


def test_size_cap_while_streaming_without_content_length(tmp_path: Path, site: Any) -> None:
    url = site.add("/stream.txt", site.Reply(body=b"y" * 200_000, send_length=False))
    with pytest.raises(FetchError, match="larger than 100000 bytes"):
        crawler(tmp_path, max_bytes=100_000).fetch(url)


def test_timeout_is_retried_then_reported(tmp_path: Path, site: Any) -> None:
    url = site.add("/slow.txt", site.Reply(body=b"late", delay=1.0))
    client = crawler(tmp_path, timeout_seconds=0.2, max_retries=1, backoff_seconds=0.0)
    started = time.monotonic()
    with pytest.raises(FetchError, match=r"timed out after 0.2 s.*2 attempt"):
        client.fetch(url)
    assert time.monotonic() - started < 1.5
    assert site.count("/slow.txt") == 2


def test_connection_refused_is_a_clear_error(tmp_path: Path) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    client = crawler(tmp_path, max_retries=1, backoff_seconds=0.0)
    with pytest.raises(FetchError, match="connection failed"):
        client.fetch(f"http://127.0.0.1:{port}/book.txt")


def test_unreachable_robots_txt_means_no_fetch(tmp_path: Path, site: Any) -> None:
    site.add("/robots.txt", site.Reply(status=500))
    url = site.add("/book.txt", site.Reply(body=b"x"))
    with pytest.raises(FetchError, match=r"robots\.txt"):
        crawler(tmp_path, max_retries=0).fetch(url)
    assert site.count("/book.txt") == 0


def test_second_run_is_served_from_cache_with_zero_requests(tmp_path: Path, site: Any) -> None:
    site.add("/robots.txt", site.Reply(body=b"User-agent: *\nDisallow: /private/\n"))
    book = site.add("/book.txt", site.Reply(body="正文".encode(), headers={"Content-Type": "a/b"}))
    missing = site.url + "/gone.txt"

    first = crawler(tmp_path)
    assert first.fetch(book).from_cache is False
    with pytest.raises(FetchError):
        first.fetch(missing)
    requests_before = site.count()

    second = crawler(tmp_path)  # a new run: same cache folder, fresh crawler
    page = second.fetch(book)
    assert (page.body, page.content_type, page.from_cache) == ("正文".encode(), "a/b", True)
    with pytest.raises(FetchError, match="HTTP 404") as caught:
        second.fetch(missing)
    assert caught.value.key == "not-found"
    with pytest.raises(FetchError, match="robots"):
        second.fetch(site.url + "/private/x.txt")  # robots.txt comes from the cache too
    assert second.requests_made == 0
    assert second.cache_hits == 2
    assert site.count() == requests_before


def test_non_http_urls_are_refused(tmp_path: Path) -> None:
    with pytest.raises(FetchError, match="not an http"):
        crawler(tmp_path).fetch("ftp://example.org/book.txt")
