"""Waiting for a page to finish loading before acting on it.

Every console and web app page with a script renders `<main aria-busy="true">` and clears it
once its data is shown and its handlers are attached. Acting earlier is the race that once
made `set_checked(False)` a silent no-op on a switch still showing its pre-load state: every
step waits here first (support/hooks.py, before_step), and so does a step that navigates and
acts within itself.
"""

from __future__ import annotations

from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

LOADING = 'main[aria-busy="true"]'
BUSY = '[aria-busy="true"]'  # anything: a load unfinished, a reply still streaming


def wait_until_loaded(page: Page, timeout_ms: float | None = None) -> None:
    """Returns once the page's <main> is no longer busy; fails after the action timeout."""
    if not _wait_until_gone(page, LOADING, timeout_ms):
        raise AssertionError(
            "the page is still loading (its <main> stays aria-busy): a load request hung or a script failed"
        )


def wait_until_quiet(page: Page, timeout_ms: float) -> bool:
    """Whether the page stopped being busy anywhere (a load, a streaming reply) within the timeout."""
    return _wait_until_gone(page, BUSY, timeout_ms)


def _wait_until_gone(page: Page, selector: str, timeout_ms: float | None) -> bool:
    if page.is_closed() or not page.url.startswith("http"):
        return True
    # Checked in the page on every animation frame. A selector wait or expect() rechecks only
    # after 20, 50, 100, 100, then every 500 ms: a load that ends at 110 ms was seen at 170 ms.
    # A navigation mid-wait is survived: Playwright re-evaluates in the new document. The handle
    # to `true` it returns is left to the scenario's context to release: disposing it would cost
    # a round trip to the browser at every step.
    try:
        page.wait_for_function(
            "s => !document.querySelector(s)", arg=selector, polling="raf", timeout=timeout_ms
        )
    except PlaywrightTimeoutError:
        return False
    return True
