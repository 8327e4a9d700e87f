"""Wrong passwords cost time. Per client, the first few failures are free, then each one locks
that client's further attempts for a delay that doubles (1 s, 2 s, 4 s, ... up to 15 min). Per
account the same count runs over all clients, but it holds back only clients that have failed
themselves: a client with no failure on record is never refused because others failed, so no one
can lock the admin out by guessing from elsewhere, while guessing spread over many addresses
still gets one free try per new address and then waits for the account's delay.

A locked attempt is refused with 429 and `Retry-After` before the password is checked, so
guessing cannot go faster; once the delay has passed the right password works again, and it
resets the counters of the account and the client. A client is its address as the console sees
it (a trusted proxy's `X-Forwarded-For`, security/__init__.py): an IPv4 address, or an IPv6
address's /64 network, which one machine usually holds whole. State is in memory: a restart
forgets it (as it forgets nothing else)."""

from __future__ import annotations

import ipaddress
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
# An IPv6 client is its /64: a single host is usually given a whole /64 to pick addresses from.
IPV6_CLIENT_PREFIX = 64
# Entries kept at most; past it, those that lock nothing are dropped first (bounded memory
# against a flood of made-up account names).
MAX_ENTRIES = 10_000


def client_key(host: str | None) -> str:
    """The throttle's name for a client address: IPv4 as is, IPv6 as its /64 network
    (IPv4-mapped IPv6 as the IPv4 address), anything unparsable as given."""
    if not host:
        return "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, IPV6_CLIENT_PREFIX), strict=False))
    return str(address)


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
        """Around one password check: refuses with 429 while the client is locked, or while the
        account is locked and this client has failed before; counts it as a failure unless the
        block completes (counted first, so parallel guesses are all counted)."""
        account_key, client_key_ = f"account:{account}", f"client:{client}"
        with self._lock:
            now = self._clock()
            own = self._entries.get(client_key_)
            wait = own.locked_until - now if own else 0.0
            if own and own.failures:  # a client that has been failing waits for the account too
                wait = max(wait, self._entries.get(account_key, _Entry()).locked_until - now)
            if wait > 0:
                seconds = math.ceil(wait)
                raise ApiError(
                    429,
                    "too_many_attempts",
                    f"Too many failed sign-ins. Try again in {seconds} s.",
                    retry_after=seconds,
                    headers={"Retry-After": str(seconds)},
                )
            for key in (account_key, client_key_):
                self._fail(key, now)
        yield  # an exception here (wrong password) leaves the failure counted
        with self._lock:
            for key in (account_key, client_key_):
                self._entries.pop(key, None)

    def _fail(self, key: str, now: float) -> None:
        if key not in self._entries and len(self._entries) >= MAX_ENTRIES:
            self._prune(now)
        entry = self._entries.setdefault(key, _Entry())
        entry.failures += 1
        if entry.failures > FREE_FAILURES:
            delay = min(MAX_DELAY_S, BASE_DELAY_S * 2 ** (entry.failures - FREE_FAILURES - 1))
            entry.locked_until = max(entry.locked_until, now + delay)

    def _prune(self, now: float) -> None:
        for key in [key for key, entry in self._entries.items() if entry.locked_until <= now]:
            del self._entries[key]
        if len(self._entries) >= MAX_ENTRIES:  # all locked: the one that unlocks first goes
            del self._entries[min(self._entries, key=lambda key: self._entries[key].locked_until)]
