"""The publish bar of an agent's pages: publish state, save state (autosave), publish and retry."""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import Locator, Page


@dataclass(frozen=True)
class PublishBar:
    page: Page

    @property
    def root(self) -> Locator:
        return self.page.get_by_role("region", name="Publish bar")

    def shows(self, text: str) -> Locator:
        return self.root.get_by_text(text, exact=True)

    @property
    def save_state(self) -> Locator:
        """What autosave is doing, as the user sees it: "Saving…", "Saved" or "Save failed"."""
        return self.root.get_by_role("status")

    def publish(self) -> None:
        self.root.get_by_role("button", name="Publish").click()

    def publish_with_note(self, note: str) -> None:
        self.root.get_by_label("Version note", exact=True).fill(note)
        self.publish()

    def retry(self) -> None:
        self.root.get_by_role("button", name="Retry").click()

    @property
    def load_latest(self) -> Locator:
        """Offered when the draft was changed in another tab (or by another user)."""
        return self.root.get_by_role("button", name="Load latest")

    @property
    def publish_error(self) -> Locator:
        return self.page.get_by_role("alert").filter(has_text="Publish failed")

    @property
    def refusal_reasons(self) -> Locator:
        return self.publish_error.get_by_role("listitem")

    def refusal_reason(self, text: str) -> Locator:
        return self.refusal_reasons.filter(has_text=text)
