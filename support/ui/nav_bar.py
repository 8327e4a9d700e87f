"""The console's top bar: main navigation, the signed-in account and "Sign out"."""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import Locator, Page

from support.browser.held_requests import HeldRequest, hold


@dataclass(frozen=True)
class NavBar:
    page: Page

    @property
    def root(self) -> Locator:
        return self.page.get_by_role("banner")

    @property
    def sign_out_button(self) -> Locator:
        """Enabled once a signed-in console page is ready to sign out."""
        return self.page.get_by_role("button", name="Sign out")

    def sign_out(self) -> None:
        self.sign_out_button.click()

    def hold_next_sign_out(self, timeout_ms: float) -> HeldRequest:
        """Hold the page's sign-out request open (the session ends when it is let through)."""
        return hold(self.page, "the sign-out", lambda url: url.endswith("/console/api/logout"), timeout_ms)

    def follow(self, link: str) -> None:
        """Click a link of the main navigation ("Agents", "Knowledge", ...)."""
        self.page.get_by_role("navigation", name="Main").get_by_role("link", name=link, exact=True).click()
