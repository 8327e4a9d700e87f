"""Voice input keeps what the microphone sends first: the capture is set up while the microphone
opens, not after it (audio sent before the capture is connected is lost)."""

from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Page, expect

from support.ui.loading import wait_until_loaded

# A microphone that stays "opening" until the test says so (the headless shell has none), and a
# flag for the capture module being loaded (a worklet's fetch is no page request Playwright sees).
OPENING_MICROPHONE = """
window.openMicrophone = null;
Object.defineProperty(navigator, 'mediaDevices', { value: {
  getUserMedia: () => new Promise((resolve) => { window.openMicrophone = resolve; }),
} });
window.captureLoaded = false;
const addModule = AudioWorklet.prototype.addModule;
AudioWorklet.prototype.addModule = function (...args) {
  return addModule.apply(this, args).then(() => { window.captureLoaded = true; });
};
"""


@pytest.fixture
def speech_model(api: httpx.Client, active_model: dict[str, str]) -> Iterator[None]:
    """The preview shows its microphone button only with a speech-to-text model chosen."""
    chosen = {"decision_model": None, "speech_to_text_model": active_model}
    api.put("/console/api/system-models", json=chosen).raise_for_status()
    yield
    api.put("/console/api/system-models", json={"decision_model": None, "speech_to_text_model": None})


@pytest.mark.usefixtures("speech_model")
def test_the_capture_is_set_up_while_the_microphone_opens(page: Page, agent: dict) -> None:
    page.add_init_script(OPENING_MICROPHONE)
    page.goto(f"/agents/{agent['id']}/configure")
    wait_until_loaded(page)

    page.get_by_role("button", name="Record voice message").click()
    # Loaded while the microphone is still opening: once it opens, only connecting remains.
    page.wait_for_function("window.captureLoaded")
    assert page.evaluate("window.openMicrophone !== null"), "the microphone was not asked for"
    expect(page.get_by_role("button", name="Stop recording")).to_be_visible()
