"""One Playwright browser per process; a fresh, signed-in, pinned context per scenario."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, Playwright, sync_playwright

from support.settings import Settings

VIEWPORT = {"width": 1280, "height": 800}
LOCALE = "en-US"
TIMEZONE = "UTC"
# Without the background-networking flags Chromium keeps dialing Google on a closed network.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SYSTEM_CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


class BrowserNotFound(RuntimeError):
    pass


def find_chromium(settings: Settings, playwright: Playwright) -> Path:
    """E2E_BROWSER_PATH, then a Playwright-managed install, then the system package."""
    if settings.browser_path is not None:
        return settings.browser_path
    managed = Path(playwright.chromium.executable_path)
    if managed.exists():
        return managed
    for name in SYSTEM_CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return Path(found)
    raise BrowserNotFound(
        "No Chromium found. Install one with `make setup` (Debian/Ubuntu: `apt-get install chromium`), "
        "or `playwright install chromium`, or set E2E_BROWSER_PATH to a Chromium binary, "
        "or E2E_BROWSER_WS_ENDPOINT to a remote Playwright server."
    )


def _throttle(context: BrowserContext, page: Page, rate: float) -> None:
    # Chromium-only DevTools call; the rate applies to the page's renderer until it closes.
    context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})


@dataclass
class BrowserSession:
    playwright: Playwright
    browser: Browser
    settings: Settings

    @property
    def description(self) -> str:
        """For the start-up line: which browser the scenarios really use."""
        remote = self.settings.browser_ws_endpoint
        return f"remote {remote}" if remote else f"{self.browser.browser_type.name} {self.browser.version}"

    @classmethod
    def start(cls, settings: Settings) -> BrowserSession:
        playwright = sync_playwright().start()
        try:
            if settings.browser_ws_endpoint:
                browser = playwright.chromium.connect(settings.browser_ws_endpoint)
            else:
                browser = playwright.chromium.launch(
                    executable_path=str(find_chromium(settings, playwright)),
                    headless=not settings.headed,
                    slow_mo=settings.slow_mo_ms,
                    args=CHROMIUM_ARGS,
                )
        except BaseException:
            playwright.stop()
            raise
        return cls(playwright, browser, settings)

    def new_context(self, storage_state: dict[str, Any] | None) -> BrowserContext:
        context = self.browser.new_context(
            viewport=VIEWPORT,  # type: ignore[arg-type]
            locale=LOCALE,
            timezone_id=TIMEZONE,
            storage_state=storage_state,  # type: ignore[arg-type]
            permissions=["clipboard-read", "clipboard-write"],
        )
        context.set_default_timeout(self.settings.timeout_ms)
        if self.settings.cpu_throttle > 1:  # every page of the context: new_page() and popups alike
            rate = self.settings.cpu_throttle
            context.on("page", lambda page: _throttle(context, page, rate))
        return context

    def close(self) -> None:
        try:
            self.browser.close()
        finally:
            self.playwright.stop()
