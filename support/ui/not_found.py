"""The console's page for an address it does not have."""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import Locator, Page


@dataclass(frozen=True)
class NotFoundPage:
    page: Page

    PATH = "/no-such-page"  # an address no console page has

    @property
    def heading(self) -> Locator:
        return self.page.get_by_role("heading", name="Page not found")
