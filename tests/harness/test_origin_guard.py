"""The origin guard of every scenario's context: a load from another origin, a load the page's
Content-Security-Policy blocked, and a navigation away each surface as an uncaught page error;
a page that loads only from its own origin raises none."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import Browser, Page

from support.browser.origin_guard import guard_origin


class _Site(BaseHTTPRequestHandler):
    """`/page?csp=1&src=URL` is a page showing the image at URL; anything else is an empty image."""

    def do_GET(self) -> None:
        path, _, query = self.path.partition("?")
        params = dict(pair.split("=", 1) for pair in query.split("&") if "=" in pair)
        self.send_response(200)
        if path == "/page":
            self.send_header("Content-Type", "text/html")
            if params.get("csp"):
                self.send_header("Content-Security-Policy", "default-src 'self'")
            self.end_headers()
            link = f'<a href="{params["away"]}">away</a>' if "away" in params else ""
            self.wfile.write(f'<main><img src="{params.get("src", "/pixel")}">{link}</main>'.encode())
        else:
            self.send_header("Content-Type", "image/gif")
            self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


def _serve() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Site)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    thread.join()


@pytest.fixture
def console() -> Iterator[str]:
    yield from _serve()


@pytest.fixture
def elsewhere() -> Iterator[str]:
    yield from _serve()


@pytest.fixture
def errors(browser: Browser, console: str) -> Iterator[tuple[Page, list[str]]]:
    context = browser.new_context()
    guard_origin(context, console + "/agents")
    page = context.new_page()
    found: list[str] = []
    page.on("pageerror", lambda error: found.append(str(error)))
    yield page, found
    context.close()


def _settle(page: Page) -> None:
    """Returns once the guard has reported what the page loaded so far. An observer made now gets
    the page's resource entries (every test page loads an image) in a task after the guard got
    them; a timer it then sets runs after the guard's reporting timers."""
    page.evaluate(
        """() => new Promise((resolve) => {
          new PerformanceObserver((_, observer) => {
            observer.disconnect();
            setTimeout(resolve);
          }).observe({ type: 'resource', buffered: true });
        })"""
    )


def test_a_page_that_loads_only_its_own_origin_raises_nothing(
    errors: tuple[Page, list[str]], console: str
) -> None:
    page, found = errors
    page.goto(f"{console}/page?csp=1")
    _settle(page)
    assert found == []


def test_a_load_from_another_origin_is_an_error_naming_it_whether_it_loaded_or_failed(
    errors: tuple[Page, list[str]], console: str, elsewhere: str
) -> None:
    page, found = errors
    for image in (f"{elsewhere}/tracker.gif", "http://127.0.0.1:1/refused.gif"):
        found.clear()
        page.goto(f"{console}/page?src={image}")
        _settle(page)
        assert found == [f"request to another origin: {image}"]


def test_a_load_the_policy_blocked_is_an_error_naming_the_directive(
    errors: tuple[Page, list[str]], console: str, elsewhere: str
) -> None:
    page, found = errors
    page.goto(f"{console}/page?csp=1&src={elsewhere}/cdn.gif")
    _settle(page)
    assert f"blocked by the Content-Security-Policy (img-src): {elsewhere}/cdn.gif" in found


def test_navigating_to_another_origin_is_an_error(
    errors: tuple[Page, list[str]], console: str, elsewhere: str
) -> None:
    page, found = errors
    page.goto(f"{console}/page?away={elsewhere}/page")
    page.get_by_role("link", name="away").click()
    page.wait_for_url(f"{elsewhere}/page")
    _settle(page)
    assert found[0] == f"request to another origin: {elsewhere}/page"  # then its image, also elsewhere
