"""The tool settings (`/settings/tools`): the builtin catalog and write-only tool credentials."""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import Locator, Page

from support.browser.held_requests import HeldRequest, hold


@dataclass(frozen=True)
class ToolsPage:
    page: Page

    PATH = "/settings/tools"

    @property
    def catalog(self) -> Locator:
        return self.page.get_by_role("region", name="Catalog")

    @property
    def catalog_entries(self) -> Locator:
        return self.catalog.get_by_role("listitem")

    def tool(self, label: str) -> Locator:
        return self.catalog_entries.filter(has_text=label)

    @property
    def credentials(self) -> Locator:
        return self.page.get_by_role("region", name="Credentials")

    def add_credential(self, tool_label: str, name: str, secret: str) -> None:
        form = self.credentials
        form.get_by_label("Tool", exact=True).select_option(label=tool_label)
        form.get_by_label("Name", exact=True).fill(name)
        form.get_by_label("Secret", exact=True).fill(secret)
        form.get_by_role("button", name="Add credential").click()

    def credential(self, name: str) -> Locator:
        return self.credentials.get_by_role("row").filter(has_text=name)

    def credential_cell(self, name: str, text: str) -> Locator:
        """The cell of the credential's row that reads exactly `text` (e.g. its masked secret)."""
        return self.credential(name).get_by_role("cell", name=text, exact=True)

    def catalog_state(self, label: str, text: str) -> Locator:
        """The catalog entry's badge, when it reads exactly `text`."""
        return self.tool(label).get_by_text(text, exact=True)

    def check_button(self, name: str) -> Locator:
        return self.credential(name).get_by_role("button", name=f"Check {name}", exact=True)

    def check_credential(self, name: str) -> None:
        self.check_button(name).click()

    def hold_next_check(self, timeout_ms: float) -> HeldRequest:
        """Hold the page's next credential check open (its answer comes when released)."""
        return hold(self.page, "the credential check", lambda url: url.endswith("/check"), timeout_ms)
