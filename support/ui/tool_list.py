"""The configure page's Tools card: a switch per tool with its state line, and the tool search."""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import Locator, Page


@dataclass(frozen=True)
class ToolList:
    page: Page

    @property
    def root(self) -> Locator:
        return self.page.get_by_role("region", name="Tools", exact=True)

    @property
    def switches(self) -> Locator:
        """Every tool switch the list shows (a tool the search hides is not shown)."""
        return self.root.get_by_role("checkbox")

    def switch(self, label: str) -> Locator:
        return self.root.get_by_role("checkbox", name=label, exact=True)

    def item(self, label: str) -> Locator:
        """The list item of the tool: its switch, state line and description."""
        switch = self.page.get_by_role("checkbox", name=label, exact=True)  # `has` is inner
        return self.root.get_by_role("listitem").filter(has=switch)

    def state(self, label: str, text: str) -> Locator:
        """The tool's state line, when it reads exactly `text`."""
        return self.item(label).get_by_text(text, exact=True)

    def search(self, text: str) -> None:
        self.root.get_by_label("Search tools", exact=True).fill(text)

    @property
    def empty_state(self) -> Locator:
        return self.root.get_by_role("status")
