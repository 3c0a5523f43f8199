"""Retrying Hub calls that failed for reasons that may pass (rate limits, 5xx, timeouts)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")
TRANSIENT_STATUS = frozenset({408, 425, 429, 500, 502, 503, 504})


def is_transient(exc: BaseException) -> bool:
    """True for errors worth retrying: connection problems, timeouts, 429 and 5xx answers."""
    from huggingface_hub.errors import HfHubHTTPError

    if isinstance(exc, HfHubHTTPError):
        response = getattr(exc, "response", None)
        status = getattr(response, "status_code", None)
        return status in TRANSIENT_STATUS
    return isinstance(exc, ConnectionError | TimeoutError) or _is_transport_error(exc)


def _is_transport_error(exc: BaseException) -> bool:
    """httpx's TransportError (connect, read, timeouts), from httpx or the httpx2 fork that
    huggingface_hub 2.x uses; matched by name so neither must be importable."""
    return any(
        cls.__name__ == "TransportError" and cls.__module__.split(".")[0] in ("httpx", "httpx2")
        for cls in type(exc).__mro__
    )


def call_with_retries(
    call: Callable[[], T],
    what: str,
    attempts: int = 4,
    backoff_seconds: float = 2.0,
    sleep: Callable[[float], None] = time.sleep,
    transient: Callable[[BaseException], bool] = is_transient,
) -> T:
    """Run `call`; retry transient failures with exponential backoff, re-raise the rest."""
    for attempt in range(1, attempts + 1):
        try:
            return call()
        except Exception as exc:
            if attempt == attempts or not transient(exc):
                raise
            delay = backoff_seconds * 2 ** (attempt - 1)
            # The exception's class only: messages may echo request details.
            log.warning(
                "%s failed (%s), retry %d of %d in %.1f s",
                what,
                type(exc).__name__,
                attempt,
                attempts - 1,
                delay,
            )
            sleep(delay)
    raise AssertionError("unreachable")  # the loop returns or raises
