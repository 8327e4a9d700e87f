"""The "Duplicate agent" dialog, opened from the roster or the configure page."""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import Locator, Page


@dataclass(frozen=True)
class DuplicateDialog:
    page: Page

    @property
    def root(self) -> Locator:
        return self.page.get_by_role("dialog", name="Duplicate agent", exact=True)

    @property
    def name(self) -> Locator:
        return self.root.get_by_label("Name", exact=True)

    def confirm(self) -> None:
        self.root.get_by_role("button", name="Duplicate", exact=True).click()

    @staticmethod
    def open_from_roster(page: Page, agent_name: str) -> DuplicateDialog:
        page.get_by_role("button", name=f"Duplicate {agent_name}", exact=True).click()
        return DuplicateDialog(page)

    @staticmethod
    def open_from_configure_page(page: Page) -> DuplicateDialog:
        page.get_by_role("button", name="Duplicate", exact=True).click()
        return DuplicateDialog(page)
