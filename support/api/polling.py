"""One bounded poll for state that only an API can tell (indexing status, a keepalive save, a parked call).

The browser side never polls: it uses Playwright's web-first assertions. This is for HTTP state
with no event to wait on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from tenacity import RetryError, Retrying, retry_if_result, stop_after_delay, wait_fixed

T = TypeVar("T")


def poll_until(
    fetch: Callable[[], T],
    done: Callable[[T], bool],
    *,
    timeout_s: float,
    interval_s: float,
    failure: Callable[[T], str],
) -> T:
    """Call `fetch` until `done(result)`; after `timeout_s`, raise AssertionError(failure(last result))."""
    retrying = Retrying(
        retry=retry_if_result(lambda result: not done(result)),
        stop=stop_after_delay(timeout_s),
        wait=wait_fixed(interval_s),
    )
    try:
        return retrying(fetch)
    except RetryError as error:
        raise AssertionError(failure(error.last_attempt.result())) from None
