"""Wrong passwords cost time: per account and per client address, the first few failures are
free, then each one locks further attempts for a delay that doubles (1 s, 2 s, 4 s, ... up to
15 min). A locked attempt is refused with 429 and `Retry-After` before the password is checked,
so guessing cannot go faster; once the delay has passed the right password works again, and it
resets both counters. State is in memory: a restart forgets it (as it forgets nothing else)."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from agent_builder.console.errors import ApiError

FREE_FAILURES = 5
BASE_DELAY_S = 1.0
MAX_DELAY_S = 900.0
# Entries kept at most; past it, those that lock nothing are dropped first (bounded memory
# against a flood of made-up account names).
MAX_ENTRIES = 10_000


@dataclass
class _Entry:
    failures: int = 0
    locked_until: float = 0.0


class LoginThrottle:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._entries: dict[str, _Entry] = {}
        self._lock = threading.Lock()

    @contextmanager
    def attempt(self, account: str, client: str) -> Iterator[None]:
        """Around one password check: refuses with 429 while locked; counts it as a failure
        unless the block completes (counted first, so parallel guesses are all counted)."""
        keys = (f"account:{account}", f"client:{client}")
        with self._lock:
            now = self._clock()
            wait = max(self._entries.get(key, _Entry()).locked_until - now for key in keys)
            if wait > 0:
                seconds = math.ceil(wait)
                raise ApiError(
                    429,
                    "too_many_attempts",
                    f"Too many failed sign-ins. Try again in {seconds} s.",
                    retry_after=seconds,
                    headers={"Retry-After": str(seconds)},
                )
            for key in keys:
                self._fail(key, now)
        yield  # an exception here (wrong password) leaves the failure counted
        with self._lock:
            for key in keys:
                self._entries.pop(key, None)

    def _fail(self, key: str, now: float) -> None:
        if key not in self._entries and len(self._entries) >= MAX_ENTRIES:
            self._prune(now)
        entry = self._entries.setdefault(key, _Entry())
        entry.failures += 1
        if entry.failures > FREE_FAILURES:
            delay = min(MAX_DELAY_S, BASE_DELAY_S * 2 ** (entry.failures - FREE_FAILURES - 1))
            entry.locked_until = now + delay

    def _prune(self, now: float) -> None:
        for key in [key for key, entry in self._entries.items() if entry.locked_until <= now]:
            del self._entries[key]
        if len(self._entries) >= MAX_ENTRIES:  # all locked: the one that unlocks first goes
            del self._entries[min(self._entries, key=lambda key: self._entries[key].locked_until)]
