"""Requests a page sends that the scenario holds open, to look at what the page shows meanwhile
(a state shown before it is true, an edit made while a save is in flight, a stale answer).

`hold(page, matches)` routes the next request whose URL `matches` to the scenario instead of the
console; `wait_until_sent()` returns once the page sent it; `release()` lets it through, or
`refuse()` drops it as a lost connection would. The console itself is never faked.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from playwright.sync_api import Page, Route

# How often waiting for a held request lets Playwright deliver it to the route handler.
_PUMP_MS = 25


@dataclass
class HeldRequest:
    page: Page
    what: str  # for messages: "the draft save", "the access change"
    timeout_ms: float
    routes: list[Route] = field(default_factory=list)

    def wait_until_sent(self) -> Route:
        """The held request, once the page has sent it; fails after the action timeout."""
        deadline = time.monotonic() + self.timeout_ms / 1000
        while not self.routes:
            if time.monotonic() > deadline:
                raise AssertionError(f"the page never sent {self.what} that the scenario holds")
            # Playwright delivers routed requests while it waits; this is that wait, bounded above.
            self.page.wait_for_timeout(_PUMP_MS)
        return self.routes[0]

    def release(self) -> None:
        """Let the held request through to the console."""
        self.wait_until_sent().continue_()

    def release_and_wait_until_answered(self) -> None:
        """Let it through, and return once the page received the answer and handled it: what the
        page shows next is what it made of that answer."""
        route = self.wait_until_sent()
        url = route.request.url
        route.continue_()
        self.page.wait_for_function(
            "url => performance.getEntriesByName(url).some(entry => entry.responseEnd > 0)", arg=url
        )
        # A task queued after the answer arrived runs after the page's own handling of it.
        self.page.evaluate("() => new Promise(resolve => setTimeout(resolve))")

    def refuse(self) -> None:
        """Drop the held request as a refused connection would."""
        self.wait_until_sent().abort("connectionrefused")


def hold(page: Page, what: str, matches: Callable[[str], bool], timeout_ms: float) -> HeldRequest:
    """Hold the next request whose URL `matches` (one request; later ones go through)."""
    held = HeldRequest(page, what, timeout_ms)
    page.route(matches, lambda route: held.routes.append(route), times=1)
    return held
