"""The header the configure and access point pages share: the agent's name, their tabs, and what
they say when the agent cannot be loaded."""

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

    def says_it_could_not_load(self, reason: str) -> Locator:
        """The alert in place of the agent's page, next to a title such as "Agent not found"."""
        return self.page.get_by_role("alert").filter(has_text=reason)

    def drop_next_agent_request(self) -> None:
        """Make the browser's next request for the agent itself fail as a dropped connection would."""
        self.page.route("**/console/api/agents/*", lambda route: route.abort("connectionrefused"), times=1)
