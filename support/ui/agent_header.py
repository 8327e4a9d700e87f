"""The header the configure and access point pages share: the agent's name and their tabs."""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import Locator, Page


@dataclass(frozen=True)
class AgentHeader:
    page: Page

    def title(self, agent_name: str) -> Locator:
        return self.page.get_by_role("heading", name=agent_name, exact=True, level=1)

    def tab(self, name: str) -> Locator:
        """A tab of the agent: "Configure" or "Access point"."""
        return self.page.get_by_role("navigation", name="Agent", exact=True).get_by_role(
            "link", name=name, exact=True
        )
