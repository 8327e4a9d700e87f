"""The configure page's build assistant: the description, the proposal it shows section by
section against the current draft (with unavailable items marked), Apply and Discard."""

from __future__ import annotations

import re
from dataclasses import dataclass

from playwright.sync_api import Locator, Page


@dataclass(frozen=True)
class BuildAssistantPanel:
    page: Page

    @property
    def region(self) -> Locator:
        return self.page.get_by_role("region", name="Build assistant", exact=True)

    @property
    def description(self) -> Locator:
        return self.region.get_by_label("Describe the agent you want", exact=True)

    @property
    def propose_button(self) -> Locator:
        return self.region.get_by_role("button", name="Propose a draft", exact=True)

    def ask(self, description: str) -> None:
        self.description.fill(description)
        self.propose_button.click()

    @property
    def status(self) -> Locator:
        return self.region.get_by_role("status")

    @property
    def error(self) -> Locator:
        return self.region.get_by_role("alert")

    @property
    def proposal(self) -> Locator:
        return self.region.get_by_role("region", name="Proposed changes", exact=True)

    @property
    def proposal_description(self) -> Locator:
        """The description the shown proposal was made for."""
        return self.page.locator("#proposal-description")

    def _row(self, section: str) -> Locator:
        # The row header is the section's name followed by its change state.
        header = self.page.get_by_role("rowheader", name=re.compile(rf"^{re.escape(section)}\b"))
        return self.proposal.get_by_role("row").filter(has=header)

    def change_state(self, section: str) -> Locator:
        """What the row header says of the section against the draft: "Changes" or "No change"."""
        return self._row(section).get_by_role("rowheader").locator(".change-state")

    def current(self, section: str) -> Locator:
        """What the draft has now in `section`, as the proposal shows it."""
        return self._row(section).get_by_role("cell").nth(0)

    def proposed(self, section: str) -> Locator:
        return self._row(section).get_by_role("cell").nth(1)

    def proposed_items(self, section: str) -> Locator:
        """The list items the proposal puts in `section`, when it proposes more than one."""
        return self.proposed(section).get_by_role("listitem")

    def proposed_item(self, section: str, name: str) -> Locator:
        return self.proposed_items(section).filter(has_text=re.compile(rf"^{re.escape(name)}\b"))

    @property
    def unavailable_note(self) -> Locator:
        return self.proposal.get_by_role("note")

    @property
    def apply_button(self) -> Locator:
        return self.proposal.get_by_role("button", name="Apply", exact=True)

    @property
    def discard_button(self) -> Locator:
        return self.proposal.get_by_role("button", name="Discard", exact=True)
