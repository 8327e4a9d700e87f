"""The publish bar of an agent's pages: publish state, save state (autosave), publish and retry."""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import Locator, Page

# Resolves with what the status reads once it reads `text`, or at the timeout: checked on each
# change of the status, whitespace collapsed as expect().to_have_text compares it.
_SAVE_STATE_READS = """(status, [text, timeoutMs]) => new Promise((resolve) => {
  const reads = () => status.textContent.replace(/\\s+/g, ' ').trim();
  if (reads() === text) return resolve(text);
  const observer = new MutationObserver(() => {
    if (reads() === text) { observer.disconnect(); clearTimeout(timer); resolve(text); }
  });
  const timer = setTimeout(() => { observer.disconnect(); resolve(reads()); }, timeoutMs);
  observer.observe(status, { childList: true, characterData: true, subtree: true });
})"""


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

    def wait_for_save_state(self, text: str, timeout_ms: float) -> None:
        """Returns as soon as the save state reads `text`; fails with what it reads after the timeout.

        Watched in the page rather than with expect(), which rechecks only every 500 ms once a wait
        passes 270 ms (not configurable: microsoft/playwright#32276): an autosave takes its 500 ms
        debounce plus the request, so every autosave assertion idled about 250 ms.
        """
        reads = self.save_state.evaluate(_SAVE_STATE_READS, [text, timeout_ms])
        if reads != text:
            raise AssertionError(
                f'the publish bar\'s save state reads "{reads}" after {timeout_ms} ms, not "{text}"'
            )

    def publish(self) -> None:
        self.root.get_by_role("button", name="Publish").click()

    def publish_with_note(self, note: str) -> None:
        self.root.get_by_label("Version note", exact=True).fill(note)
        self.publish()

    @property
    def guidance(self) -> Locator:
        """What the bar shows after the first publish: where the agent can now be used."""
        return self.root.get_by_role("region", name="Your agent is live. Share it:", exact=True)

    @property
    def guidance_links(self) -> Locator:
        """Every link of the first-publish guidance, in the order the bar shows them."""
        return self.guidance.get_by_role("link")

    def guidance_link(self, name: str) -> Locator:
        return self.guidance.get_by_role("link", name=name, exact=True)

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
