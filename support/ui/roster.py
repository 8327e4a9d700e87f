"""The agent roster (`/agents`): list, search, create and delete agents."""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

from playwright.sync_api import Locator, Page

from support.browser.held_requests import HeldRequest, hold


@dataclass(frozen=True)
class DeleteAgentDialog:
    root: Locator

    def confirm(self) -> None:
        self.root.get_by_role("button", name="Delete").click()

    def cancel(self) -> None:
        self.root.get_by_role("button", name="Cancel").click()


@dataclass(frozen=True)
class RosterPage:
    page: Page

    PATH = "/agents"
    URL = re.compile(r"/agents$")

    @property
    def heading(self) -> Locator:
        return self.page.get_by_role("heading", name="Agents", exact=True)

    def search(self, text: str) -> None:
        self.page.get_by_label("Search agents", exact=True).fill(text)

    @property
    def rows(self) -> Locator:
        """The agents listed, one row each."""
        return self.page.get_by_role("list", name="Agents", exact=True).get_by_role("listitem")

    @property
    def show_more_button(self) -> Locator:
        return self.page.get_by_role("button", name="Show more", exact=True)

    def row(self, agent_name: str) -> Locator:
        return self.page.get_by_role("listitem").filter(has=self.link(agent_name))

    def row_buttons(self, agent_name: str) -> Locator:
        """The buttons of the agent's row, in order (their text is what a sighted user reads)."""
        return self.row(agent_name).get_by_role("button")

    def link(self, agent_name: str) -> Locator:
        return self.page.get_by_role("link", name=agent_name, exact=True)

    def says(self, text: str) -> Locator:
        """A message of the roster's own, such as its empty state."""
        return self.page.get_by_text(text, exact=True)

    def hold_search_for(self, text: str, timeout_ms: float) -> HeldRequest:
        """Hold the page's request for the agents matching `text` (its answer comes when released)."""

        def is_search(url: str) -> bool:
            parts = urlsplit(url)
            return parts.path == "/console/api/agents" and parse_qs(parts.query).get("search") == [text]

        return hold(self.page, "the roster search", is_search, timeout_ms)

    def create(self, name: str) -> None:
        self.page.get_by_role("button", name="Create agent").click()
        dialog = self.page.get_by_role("dialog", name="Create agent")
        dialog.get_by_label("Name", exact=True).fill(name)
        dialog.get_by_role("button", name="Create").click()

    def start_delete(self, agent_name: str) -> DeleteAgentDialog:
        self.page.get_by_role("button", name=f"Delete {agent_name}").click()
        return DeleteAgentDialog(self.page.get_by_role("dialog", name="Delete agent?"))
