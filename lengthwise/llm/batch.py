"""Run many requests through one `complete` function: input order out, each result as it lands."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait

from lengthwise.llm.types import ChatRequest, ChatResult, ResultCallback


def run_batch(
    requests: Sequence[ChatRequest],
    complete: Callable[[ChatRequest], ChatResult],
    *,
    concurrency: int,
    on_result: ResultCallback | None = None,
) -> list[ChatResult]:
    """Answers for `requests` in input order, at most `concurrency` in flight.

    `on_result` runs in the calling thread, so callers need no locking and an exception
    it raises (KeyboardInterrupt included) stops the batch: requests not yet started
    are cancelled, those in flight finish (and reach the cache) before it propagates.
    """
    results: list[ChatResult | None] = [None] * len(requests)
    if concurrency <= 1 or len(requests) <= 1:
        for index, request in enumerate(requests):
            result = complete(request)
            results[index] = result
            if on_result is not None:
                on_result(index, result)
        return _all_done(results)

    executor = ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="llm")
    try:
        pending: dict[Future[ChatResult], int] = {
            executor.submit(complete, request): index for index, request in enumerate(requests)
        }
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            # Report in input order within one wake-up, so runs are easier to follow.
            for future in sorted(done, key=pending.__getitem__):
                index = pending.pop(future)
                result = future.result()
                results[index] = result
                if on_result is not None:
                    on_result(index, result)
    finally:
        executor.shutdown(wait=True, cancel_futures=True)
    return _all_done(results)


def _all_done(results: list[ChatResult | None]) -> list[ChatResult]:
    finished = [result for result in results if result is not None]
    if len(finished) != len(results):  # cannot happen: every index is filled above
        raise RuntimeError("internal error: a batch finished with missing results")
    return finished
