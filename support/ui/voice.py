"""Voice input's microphone control, in the web app's composer or the preview's: the button that
records and stops, what it says it is doing, and why it failed."""

from __future__ import annotations

import re
from dataclasses import dataclass

from playwright.sync_api import Locator, Page, expect

from support.browser.held_requests import HeldRequest, hold
from support.step_helpers import LONG_WAIT_MS

_TRANSCRIPTION = re.compile(r"/audio/transcriptions$")

RECORD = "Record voice message"
STOP = "Stop recording"


@dataclass(frozen=True)
class MicrophoneControl:
    page: Page
    container: Locator  # where its button is: the web app's page, the preview region
    prefix: str  # of its status and error ids: "" in the web app, "preview-" in the preview

    @property
    def record_button(self) -> Locator:
        return self.container.get_by_role("button", name=RECORD, exact=True)

    @property
    def stop_button(self) -> Locator:
        return self.container.get_by_role("button", name=STOP, exact=True)

    @property
    def status(self) -> Locator:
        return self.page.locator(f"#{self.prefix}voice-status")

    @property
    def error(self) -> Locator:
        return self.page.locator(f"#{self.prefix}voice-error")

    def start(self) -> None:
        self.record_button.click()

    def hold_next_transcription(self, timeout_ms: float) -> HeldRequest:
        return hold(self.page, "the transcription", lambda url: bool(_TRANSCRIPTION.search(url)), timeout_ms)

    def record(self, seconds: float) -> None:
        """Record until `seconds` of audio were captured, then stop and wait until the recording
        is transcribed or refused."""
        self.record_and_stop(seconds)
        # The button is back (and enabled) once the recording was transcribed or refused.
        expect(self.record_button).to_be_enabled(timeout=LONG_WAIT_MS)  # transcribing: a model call

    def record_and_stop(self, seconds: float) -> None:
        """Record until `seconds` of audio were captured (the page counts them), then stop."""
        self.start()
        expect(self.stop_button).to_be_visible()
        self.page.wait_for_function(
            """([status, seconds]) => {
              const recorded = /Recording… ([0-9.]+) s/.exec(status.textContent);
              return recorded && parseFloat(recorded[1]) >= seconds;
            }""",
            arg=[self.status.element_handle(), seconds],
            timeout=LONG_WAIT_MS,  # as long as the clip
        )
        self.stop_button.click()
