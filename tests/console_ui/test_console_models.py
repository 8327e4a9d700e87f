"""The model providers page chooses the console's own models: the build assistant's decision
model and voice input's speech-to-text model."""

from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Page, expect


@pytest.fixture
def no_console_models(api: httpx.Client) -> Iterator[None]:
    api.put("/console/api/system-models", json={}).raise_for_status()
    yield
    api.put("/console/api/system-models", json={}).raise_for_status()


def test_the_console_models_are_chosen_and_shown_again(
    page: Page, api: httpx.Client, active_model: dict, no_console_models: None
) -> None:
    provider = api.get(f"/console/api/model-providers/{active_model['provider_id']}").json()
    page.goto("/settings/model-providers")
    expect(page.locator("main")).to_have_attribute("aria-busy", "false")
    decision = page.get_by_label("Decision model", exact=True)
    expect(decision).to_have_value("")
    decision.select_option(label=f"{provider['name']} / {active_model['name']}")
    page.get_by_label("Speech-to-text provider", exact=True).select_option(label=provider["name"])
    page.get_by_label("Speech-to-text model", exact=True).fill("whisper-1")
    page.get_by_role("button", name="Save console models").click()
    expect(page.get_by_text("Saved console models", exact=True)).to_be_visible()
    assert api.get("/console/api/system-models").json() == {
        "decision_model": active_model,
        "speech_to_text_model": {"provider_id": provider["id"], "name": "whisper-1"},
    }

    page.reload()
    expect(page.locator("main")).to_have_attribute("aria-busy", "false")
    expect(page.get_by_label("Speech-to-text model", exact=True)).to_have_value("whisper-1")
    expect(decision.get_by_role("option", selected=True)).to_have_text(
        f"{provider['name']} / {active_model['name']}"
    )
