"""The service API reference, the page the access point's "API reference" link opens."""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import Locator, Page


@dataclass(frozen=True)
class ApiReferencePage:
    page: Page

    @property
    def title(self) -> Locator:
        return self.page.get_by_role("heading", level=1)

    @property
    def content(self) -> Locator:
        return self.page.get_by_role("main")
