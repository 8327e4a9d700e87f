"""Requests a page sends that the scenario holds open, to look at what the page shows meanwhile
(a state shown before it is true, an edit made while a save is in flight, a stale answer).

`hold(page, matches)` routes the next request whose URL `matches` to the scenario instead of the
console; `wait_until_sent()` returns once the page sent it; `release()` lets it through,
`hold_answer()` lets it reach the console but keeps the answer from the page, or `refuse()` drops
it as a lost connection would. The console itself is never faked.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import httpx
from playwright.sync_api import Page, Request, Route
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from support.settings.network import tls


@dataclass
class HeldRequest:
    page: Page
    what: str  # for messages: "the draft save", "the access change"
    matches: Callable[[str], bool]
    timeout_ms: float
    sent: list[Request] = field(default_factory=list)
    routes: list[Route] = field(default_factory=list)

    def wait_until_sent(self) -> Route:
        """The held request, once the page has sent it; fails after the action timeout."""
        if not self.routes and not self.sent:
            try:
                self.page.wait_for_event(
                    "request", lambda request: self.matches(request.url), timeout=self.timeout_ms
                )
            except PlaywrightTimeoutError:
                raise AssertionError(f"the page never sent {self.what} that the scenario holds") from None
        if not self.routes:
            # Playwright announces a request before routing it, in one ordered stream: once a
            # round trip started after the announcement is answered, the route has been handled.
            self.page.evaluate("0")
        if not self.routes:
            raise AssertionError(f"{self.what} was sent but never reached the scenario's route")
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

    def hold_answer(self) -> None:
        """Let the held request reach the console and return once the console answered, keeping
        that answer from the page: the work is done, and the page still waits to hear of it.

        The suite sends it, with the page's cookies and headers, rather than Playwright's
        `route.fetch`: that runs in Playwright's driver, which knows neither the deployment's host
        mapping nor its CA (the browser gets both as launch flags)."""
        request = self.wait_until_sent().request
        headers = {name: value for name, value in request.all_headers().items() if not name.startswith(":")}
        headers.pop("host", None)
        headers.pop("content-length", None)
        with httpx.Client(verify=tls(), timeout=self.timeout_ms / 1000) as client:
            answer = client.request(
                request.method, request.url, headers=headers, content=request.post_data_buffer
            )
        assert answer.is_success, f"the console refused {self.what}: {answer.status_code} {answer.text}"

    def refuse(self) -> None:
        """Drop the held request as a refused connection would."""
        self.wait_until_sent().abort("connectionrefused")


def hold(page: Page, what: str, matches: Callable[[str], bool], timeout_ms: float) -> HeldRequest:
    """Hold the next request whose URL `matches` (one request; later ones go through)."""
    held = HeldRequest(page, what, matches, timeout_ms)
    page.on(
        "request",
        lambda request: held.sent.append(request) if not held.sent and matches(request.url) else None,
    )
    page.route(matches, lambda route: held.routes.append(route), times=1)
    return held
