"""A polite, cached HTTP fetcher for book pages and files.

Libraries: `requests` (one Session: connection reuse, redirects, proxies from the environment)
and `protego` for robots.txt (RFC 9309 matching, Crawl-delay, Request-rate).

Politeness: robots.txt is fetched once per origin and obeyed (a 4xx robots.txt allows all; an
unreachable one - 5xx or network error - disallows all, as RFC 9309 asks). Requests to one host
are spaced by at least 1 / requests_per_second_per_host, raised to the site's Crawl-delay.
Transient failures (connection errors, timeouts, 5xx, 429) retry with exponential backoff, and
a Retry-After header is honoured up to `max_retry_after_seconds`.

Cache: every 2xx answer, and every 404/410 (so a missing fallback URL is not asked for again),
is stored under `cache_dir` keyed by the sha256 of the URL, written atomically; robots.txt goes
through the same cache. A second run over the same URLs makes no request at all. Entries never
expire: books do not change, and deleting the folder forces a refetch.

Not thread-safe: use one Crawler per thread.
"""

from __future__ import annotations

import email.utils
import hashlib
import json
import re
import time
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import requests
from protego import Protego

from lengthwise.builders.sources.errors import FetchError, ReasonKey
from lengthwise.spec import CrawlConfig
from lengthwise.storage import atomic_write_bytes, atomic_write_json

__all__ = ["Crawler", "FetchError", "FetchedPage"]

_RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
_CACHED_ERROR_STATUSES = frozenset({404, 410})
_CHUNK_BYTES = 64 * 1024


@dataclass
class FetchedPage:
    url: str
    final_url: str  # after redirects
    status: int
    content_type: str  # the raw Content-Type header, "" when absent
    body: bytes
    from_cache: bool


@dataclass
class _CacheMeta:
    url: str
    final_url: str
    status: int
    content_type: str
    reason: str


@dataclass
class _ResponseMeta(_CacheMeta):
    headers: dict[str, str]  # lower-cased names; only needed for Retry-After


class Crawler:
    """Fetch URLs politely; `requests_made` and `cache_hits` count what happened."""

    def __init__(
        self,
        config: CrawlConfig,
        cache_dir: Path,
        *,
        max_retry_after_seconds: float = 60.0,
    ) -> None:
        self.config = config
        self.cache_dir = cache_dir
        self.max_retry_after_seconds = max_retry_after_seconds
        self.requests_made = 0  # HTTP requests sent, retries and robots.txt included
        self.cache_hits = 0  # fetch() calls answered from the cache
        self._session = requests.Session()
        self._session.headers["User-Agent"] = config.user_agent
        self._robots: dict[str, Protego | None] = {}  # origin -> rules (None = allow all)
        self._min_interval: dict[str, float] = {}  # host -> seconds between requests
        self._last_request: dict[str, float] = {}  # host -> when its last exchange ended

    def close(self) -> None:
        self._session.close()

    def fetch(self, url: str) -> FetchedPage:
        """The body of `url` (from the cache when possible); `FetchError` says why not."""
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise FetchError(url, "not an http(s) URL")
        cached = self._cache_read(url)
        if cached is not None:
            self.cache_hits += 1
            meta, body = cached
            return self._page_or_error(meta, body, from_cache=True)
        self._check_robots(url)
        meta, body = self._request(url)
        if 200 <= meta.status < 300 or meta.status in _CACHED_ERROR_STATUSES:
            self._cache_write(meta, body)
        return self._page_or_error(meta, body, from_cache=False)

    # -- robots.txt ---------------------------------------------------------------------

    def _check_robots(self, url: str) -> None:
        parts = urlsplit(url)
        origin = f"{parts.scheme}://{parts.netloc}"
        if origin not in self._robots:
            self._robots[origin] = self._load_robots(origin, url)
        rules = self._robots[origin]
        if rules is not None and not rules.can_fetch(url, self.config.user_agent):
            raise FetchError(url, "disallowed by robots.txt", "robots-disallowed")

    def _load_robots(self, origin: str, url: str) -> Protego | None:
        robots_url = f"{origin}/robots.txt"
        cached = self._cache_read(robots_url)
        meta: _CacheMeta
        if cached is None:
            try:
                meta, body = self._request(robots_url)
            except FetchError as error:
                raise FetchError(
                    url, f"robots.txt unreachable ({error.reason}); not fetching (RFC 9309)"
                ) from None
            if meta.status >= 500:
                raise FetchError(url, f"robots.txt answered HTTP {meta.status}; not fetching")
            self._cache_write(meta, body)
        else:
            meta, body = cached
        if not 200 <= meta.status < 300:
            return None  # 4xx: no robots.txt, everything allowed
        rules = Protego.parse(body.decode("utf-8", errors="replace"))
        host = urlsplit(origin).netloc
        delays = [1.0 / self.config.requests_per_second_per_host]
        crawl_delay = rules.crawl_delay(self.config.user_agent)
        if crawl_delay:
            delays.append(float(crawl_delay))
        rate = rules.request_rate(self.config.user_agent)
        if rate and rate.requests:
            delays.append(rate.seconds / rate.requests)
        self._min_interval[host] = max(delays)
        return rules

    # -- HTTP ---------------------------------------------------------------------------

    def _request(self, url: str) -> tuple[_ResponseMeta, bytes]:
        """GET with retries on transient failures; returns the final answer, any status."""
        attempt = 0
        while True:
            retry_after: float | None = None
            try:
                meta, body = self._request_once(url)
            except (requests.Timeout, requests.ConnectionError) as exc:
                problem = _describe_network_error(exc, self.config.timeout_seconds)
            else:
                if meta.status not in _RETRY_STATUSES:
                    return meta, body
                problem = f"HTTP {meta.status} {meta.reason}".strip()
                retry_after = _parse_retry_after(meta.headers.get("retry-after"))
            if attempt >= self.config.max_retries:
                tries = attempt + 1
                raise FetchError(url, f"{problem} (gave up after {tries} attempt(s))")
            delay = self.config.backoff_seconds * 2**attempt
            if retry_after is not None:
                delay = max(delay, min(retry_after, self.max_retry_after_seconds))
            time.sleep(delay)
            attempt += 1

    def _request_once(self, url: str) -> tuple[_ResponseMeta, bytes]:
        host = urlsplit(url).netloc
        self._wait_turn(host)
        self.requests_made += 1
        try:
            return self._send(url)
        finally:
            # Spacing runs from the end of the previous exchange: whatever the network latency,
            # the server never sees two requests closer together than the interval.
            self._last_request[host] = time.monotonic()

    def _send(self, url: str) -> tuple[_ResponseMeta, bytes]:
        timeout = self.config.timeout_seconds
        try:
            response = self._session.get(url, stream=True, timeout=(timeout, timeout))
        except requests.TooManyRedirects:
            raise FetchError(url, "too many redirects") from None
        except (requests.Timeout, requests.ConnectionError):
            raise
        except requests.RequestException as exc:
            raise FetchError(url, f"request failed: {exc}") from None
        with response:
            meta = _ResponseMeta(
                url=url,
                final_url=response.url,
                status=response.status_code,
                content_type=response.headers.get("Content-Type", ""),
                reason=response.reason or "",
                headers={k.lower(): v for k, v in response.headers.items()},
            )
            if meta.status in _RETRY_STATUSES or not 200 <= meta.status < 300:
                return meta, b""  # error bodies are not kept
            return meta, self._read_capped(response, url)

    def _read_capped(self, response: requests.Response, url: str) -> bytes:
        limit = self.config.max_bytes
        declared = response.headers.get("Content-Length", "")
        if declared.isdigit() and int(declared) > limit:
            raise FetchError(
                url, f"larger than {limit} bytes (Content-Length {declared})", "too-large"
            )
        chunks: list[bytes] = []
        received = 0
        for chunk in response.iter_content(_CHUNK_BYTES):
            received += len(chunk)
            if received > limit:
                raise FetchError(url, f"larger than {limit} bytes", "too-large")
            chunks.append(chunk)
        return b"".join(chunks)

    def _wait_turn(self, host: str) -> None:
        interval = self._min_interval.get(host, 1.0 / self.config.requests_per_second_per_host)
        last = self._last_request.get(host)
        if last is not None:
            wait = last + interval - time.monotonic()
            if wait > 0:
                time.sleep(wait)

    def _page_or_error(self, meta: _CacheMeta, body: bytes, *, from_cache: bool) -> FetchedPage:
        if 200 <= meta.status < 300:
            return FetchedPage(
                url=meta.url,
                final_url=meta.final_url,
                status=meta.status,
                content_type=meta.content_type,
                body=body,
                from_cache=from_cache,
            )
        problem = f"HTTP {meta.status} {meta.reason}".strip()
        if from_cache:
            problem += f" (cached answer; delete {self._cache_paths(meta.url)[0]} to retry)"
        key: ReasonKey = "not-found" if meta.status in _CACHED_ERROR_STATUSES else "fetch-failed"
        raise FetchError(meta.url, problem, key)

    # -- cache --------------------------------------------------------------------------

    def _cache_paths(self, url: str) -> tuple[Path, Path]:
        key = hashlib.sha256(url.encode("utf-8")).hexdigest()
        folder = self.cache_dir / key[:2]
        return folder / f"{key}.json", folder / f"{key}.body"

    def _cache_read(self, url: str) -> tuple[_CacheMeta, bytes] | None:
        meta_path, body_path = self._cache_paths(url)
        try:
            raw: Any = json.loads(meta_path.read_text(encoding="utf-8"))
            body = body_path.read_bytes()
            meta = _CacheMeta(
                url=str(raw["url"]),
                final_url=str(raw["final_url"]),
                status=int(raw["status"]),
                content_type=str(raw["content_type"]),
                reason=str(raw["reason"]),
            )
        except (OSError, ValueError, KeyError, TypeError):
            return None  # missing or damaged entry: fetch again
        return (meta, body) if meta.url == url else None

    def _cache_write(self, meta: _CacheMeta, body: bytes) -> None:
        meta_path, body_path = self._cache_paths(meta.url)
        # Body first: the metadata file is what marks an entry complete.
        atomic_write_bytes(body_path, body)
        record = {
            **{key: value for key, value in asdict(meta).items() if key != "headers"},
            "fetched_at": datetime.now(UTC).isoformat(timespec="seconds"),
        }
        atomic_write_json(meta_path, record)


def _parse_retry_after(value: str | None) -> float | None:
    """Retry-After as seconds: either a number or an HTTP date."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def _describe_network_error(exc: requests.RequestException, timeout: float) -> str:
    if isinstance(exc, requests.Timeout) or "timed out" in str(exc).lower():
        return f"timed out after {timeout:g} s"
    # requests nests urllib3 errors; the "[Errno N] ..." part is what a user can act on.
    errno = re.search(r"\[Errno -?\d+\] ([^'\")]+)", str(exc))
    return f"connection failed: {errno.group(1).strip() if errno else type(exc).__name__}"
