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


def wait_until_loaded(page: Page, timeout_ms: float | None = None) -> None:
    """Returns once the page's <main> is no longer busy; fails after the action timeout."""
    if page.is_closed() or not page.url.startswith("http"):
        return
    # A selector wait, not expect(): it rechecks within milliseconds, where expect() sleeps 100,
    # then 250 ms between checks, and nearly every step starts just after a page began loading.
    try:
        page.locator('main[aria-busy="true"]').wait_for(state="detached", timeout=timeout_ms)
    except PlaywrightTimeoutError:
        raise AssertionError(
            "the page is still loading (its <main> stays aria-busy): a load request hung or a script failed"
        ) from None
