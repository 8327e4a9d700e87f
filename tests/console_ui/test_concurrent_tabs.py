"""Two tabs on one agent's configure page: the stale one says so (on save and on focus), offers
"Load latest", never overwrites the other's edit, and both converge."""

from __future__ import annotations

import httpx
from playwright.sync_api import Browser, Page, expect

from tests.console_ui.conftest import ADMIN_EMAIL, ADMIN_PASSWORD

CONFLICT = "Save failed: this agent was changed elsewhere. Reload to get the latest version."
CHANGED = "This agent was changed elsewhere. Load the latest version to keep editing."


def _second_tab(browser: Browser, console_url: str) -> Page:
    context = browser.new_context(base_url=console_url, viewport={"width": 1280, "height": 800})
    context.request.post("/console/api/login", data={"email": ADMIN_EMAIL, "password": ADMIN_PASSWORD})
    return context.new_page()


def _draft(api: httpx.Client, agent_id: str) -> dict:
    return api.get(f"/console/api/agents/{agent_id}").raise_for_status().json()["draft"]


def test_tabs_editing_different_fields_converge_after_load_latest(
    page: Page, browser: Browser, console_url: str, agent: dict, api: httpx.Client
) -> None:
    other = _second_tab(browser, console_url)
    try:
        for tab in (page, other):
            tab.goto(f"/agents/{agent['id']}/configure")
            expect(tab.get_by_label("Instructions", exact=True)).to_be_editable()
        page.get_by_label("Instructions", exact=True).fill("Edited in tab one.")
        expect(page.get_by_text("Saved", exact=True)).to_be_visible()

        other.get_by_role("textbox", name="Opening statement").fill("Edited in tab two.")
        bar = other.get_by_role("region", name="Publish bar")
        expect(bar.get_by_text(CONFLICT, exact=True)).to_be_visible()
        assert _draft(api, agent["id"])["config"]["opening_statement"] == ""  # nothing overwritten

        bar.get_by_role("button", name="Load latest").click()
        expect(bar.get_by_text("Saved", exact=True)).to_be_visible()
        expect(other.get_by_label("Instructions", exact=True)).to_have_value("Edited in tab one.")
        config = _draft(api, agent["id"])["config"]
        assert (config["instructions"], config["opening_statement"]) == (
            "Edited in tab one.",
            "Edited in tab two.",
        )

        for tab in (page, other):
            tab.reload()
            expect(tab.get_by_label("Instructions", exact=True)).to_have_value("Edited in tab one.")
            expect(tab.get_by_role("textbox", name="Opening statement")).to_have_value("Edited in tab two.")
    finally:
        other.context.close()


def test_a_tab_that_regains_focus_notices_a_change_made_elsewhere(
    page: Page, agent: dict, api: httpx.Client
) -> None:
    page.goto(f"/agents/{agent['id']}/configure")
    instructions = page.get_by_label("Instructions", exact=True)
    expect(instructions).to_be_editable()
    draft = _draft(api, agent["id"])
    elsewhere = {**draft["config"], "instructions": "Saved in another tab."}
    api.put(
        f"/console/api/agents/{agent['id']}/draft", json={"revision": draft["revision"], "config": elsewhere}
    ).raise_for_status()

    page.evaluate("window.dispatchEvent(new Event('focus'))")
    bar = page.get_by_role("region", name="Publish bar")
    expect(bar.get_by_text(CHANGED, exact=True)).to_be_visible()
    saves: list[str] = []
    page.on("request", lambda request: request.method == "PUT" and saves.append(request.url))
    instructions.fill("Typed while stale.")
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # no save may go out
    bar.get_by_role("button", name="Load latest").click()
    # Both tabs changed the instructions: the other tab's edit, saved first, stays.
    expect(instructions).to_have_value("Saved in another tab.")
    expect(bar.get_by_text("Loaded the latest version", exact=True)).to_be_visible()
    assert saves == []
    assert _draft(api, agent["id"])["config"]["instructions"] == "Saved in another tab."
