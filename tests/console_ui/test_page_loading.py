"""A page is busy until its data has loaded, and acting on it waits for that instead of passing.

The race this guards: `set_checked(False)` on the access page's web app switch, run while the page
still showed the switch's pre-load state (unchecked), returned at once without clicking; the page
then rendered the real state, enabled, and no change was ever sent.
"""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Page, Route, expect

from support.browser.loading import wait_until_loaded
from tests.console_ui.test_web_app import publish


@pytest.fixture
def held_access(page: Page, agent: dict) -> list[Route]:
    """Holds the access page's data request (the agent detail, with its access) until the test lets it through."""
    held: list[Route] = []
    page.route(f"**/console/api/agents/{agent['id']}", lambda route: held.append(route))
    return held


def test_acting_on_an_unloaded_page_waits_for_its_real_state(
    page: Page, agent: dict, api: httpx.Client, active_model: dict, held_access: list[Route]
) -> None:
    publish(api, agent, active_model)  # the web app is enabled
    page.goto(f"/agents/{agent['id']}/access")
    expect(page.locator("main")).to_have_attribute("aria-busy", "true")
    switch = page.get_by_label("Web app enabled")
    expect(switch).to_be_hidden()  # its unchecked pre-load state is not the agent's

    with pytest.raises(AssertionError, match="the page is still loading"):
        wait_until_loaded(page, timeout_ms=500)  # waits, and fails loudly, rather than passing
    assert len(held_access) == 1, "the page asked for its data while the test waited"

    held_access[0].continue_()
    wait_until_loaded(page)
    expect(switch).to_be_checked()
    switch.set_checked(False)  # the race's action: now it really unchecks
    expect(page.get_by_text("Web app is disabled", exact=True)).to_be_visible()
    detail = api.get(f"/console/api/agents/{agent['id']}").raise_for_status().json()
    assert detail["access"]["web_app_enabled"] is False
