"""Request pacing shared by the worker threads of one client: a rate limit and retry backoff."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable


class RateLimiter:
    """Spaces request starts at least `1 / requests_per_second` apart across threads.

    An interval scheduler (a token bucket of depth one): no burst at start-up, which is
    what providers' per-second limits expect. `None` means no limit.
    """

    def __init__(
        self,
        requests_per_second: float | None,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if requests_per_second is not None and requests_per_second <= 0:
            raise ValueError(f"requests_per_second must be > 0, got {requests_per_second}")
        self.interval = 0.0 if requests_per_second is None else 1.0 / requests_per_second
        self._clock = clock
        self._sleep = sleep
        self._lock = threading.Lock()
        self._next_start = 0.0

    def acquire(self) -> None:
        """Block until this caller may start a request."""
        if self.interval == 0.0:
            return
        with self._lock:
            # Reserve a slot under the lock, wait outside it so others can queue behind.
            now = self._clock()
            start = max(now, self._next_start)
            self._next_start = start + self.interval
        if start > now:
            self._sleep(start - now)


def backoff_delay(
    attempt: int,
    *,
    base_seconds: float,
    max_seconds: float,
    rng: random.Random | None = None,
) -> float:
    """Exponential backoff with jitter: about base * 2**attempt, in [half, full], capped.

    Jitter keeps threads that failed together from retrying together.
    """
    full = min(max_seconds, base_seconds * 2.0**attempt)
    draw = rng.random() if rng is not None else random.random()
    return full * (0.5 + 0.5 * draw)
