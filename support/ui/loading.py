"""Waiting for a page to finish loading before acting on it.

Every console and web app page with a script renders `<main aria-busy="true">` and clears it
once its data is shown and its handlers are attached. Acting earlier is the race that once
made `set_checked(False)` a silent no-op on a switch still showing its pre-load state: every
step waits here first (support/hooks.py, before_step), and so does a step that navigates and
acts within itself.
"""

from __future__ import annotations

from playwright.sync_api import Page, expect


def wait_until_loaded(page: Page, timeout_ms: float | None = None) -> None:
    """Returns once the page's <main> is no longer busy; fails after the action timeout."""
    if page.is_closed() or not page.url.startswith("http"):
        return
    expect(
        page.locator('main[aria-busy="true"]'),
        "the page is still loading (its <main> stays aria-busy): a load request hung or a script failed",
    ).to_have_count(0, timeout=timeout_ms)
