"""Autosave on the configure page, asserted on what the user sees (the publish bar) and on
what the server then holds."""

import time

import httpx
import pytest
from playwright.sync_api import Page, Request, Route, expect

from support.browser.loading import wait_until_loaded
from support.ui.publish_bar import PublishBar

CONFLICT = "Save failed: this agent was changed elsewhere. Reload to get the latest version."


def draft_config(api: httpx.Client, agent_id: str) -> dict:
    return api.get(f"/console/api/agents/{agent_id}").raise_for_status().json()["draft"]["config"]


def wait_for_instructions(api: httpx.Client, agent_id: str, expected: str, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while (actual := draft_config(api, agent_id)["instructions"]) != expected:
        assert time.monotonic() < deadline, f"instructions on the server: {actual!r}"
        time.sleep(0.1)


def test_edits_show_saving_then_saved_and_survive_a_reload(page: Page, agent: dict) -> None:
    page.goto(f"/agents/{agent['id']}/configure")
    bar = page.get_by_role("region", name="Publish bar")
    instructions = page.get_by_label("Instructions", exact=True)

    instructions.fill("Answer in one short paragraph.")
    expect(bar.get_by_text("Saving…", exact=True)).to_be_visible()
    expect(bar.get_by_text("Saved", exact=True)).to_be_visible()
    expect(bar.get_by_text("Not published", exact=True)).to_be_visible()

    page.reload()
    expect(instructions).to_have_value("Answer in one short paragraph.")


def test_an_edit_is_not_lost_when_the_user_leaves_immediately(
    page: Page, agent: dict, api: httpx.Client
) -> None:
    page.goto(f"/agents/{agent['id']}/configure")
    page.get_by_label("Instructions", exact=True).fill("Typed just before leaving.")
    page.goto("/agents")  # well within the autosave delay: only the keepalive flush can save it

    wait_for_instructions(api, agent["id"], "Typed just before leaving.")


def test_the_save_state_wait_waits_for_the_save_and_fails_with_what_the_bar_reads(
    page: Page, agent: dict, api: httpx.Client
) -> None:
    held: list[Route] = []
    page.route(
        f"**/console/api/agents/{agent['id']}/draft",
        lambda route: held.append(route) if route.request.method == "PUT" else route.continue_(),
    )
    page.goto(f"/agents/{agent['id']}/configure")
    wait_until_loaded(page)
    bar = PublishBar(page)

    def draft_save(request: Request) -> bool:
        return request.method == "PUT" and request.url.endswith("/draft")

    with page.expect_request(draft_save):  # sent after the debounce, and held
        page.get_by_label("Instructions", exact=True).fill("Saved once the test lets it through.")
    with pytest.raises(AssertionError, match='reads "Saving…" after 300 ms, not "Saved"'):
        bar.wait_for_save_state("Saved", timeout_ms=300)

    assert len(held) == 1
    held[0].continue_()
    bar.wait_for_save_state("Saved", timeout_ms=10_000)
    assert draft_config(api, agent["id"])["instructions"] == "Saved once the test lets it through."


def test_a_stale_revision_is_reported_and_nothing_is_overwritten(
    page: Page, agent: dict, api: httpx.Client
) -> None:
    # A fake clock drives the autosave debounce, so "no save goes out" is checked without a sleep.
    page.clock.install()
    page.goto(f"/agents/{agent['id']}/configure")
    instructions = page.get_by_label("Instructions", exact=True)
    expect(instructions).to_be_editable()  # the page has loaded the draft and its revision

    draft = api.get(f"/console/api/agents/{agent['id']}").json()["draft"]
    elsewhere = {**draft["config"], "instructions": "Saved in another tab."}
    api.put(
        f"/console/api/agents/{agent['id']}/draft", json={"revision": draft["revision"], "config": elsewhere}
    ).raise_for_status()

    instructions.fill("Typed on a stale page.")
    page.clock.run_for(2000)
    bar = page.get_by_role("region", name="Publish bar")
    expect(bar.get_by_text(CONFLICT, exact=True)).to_be_visible()

    saves: list[str] = []
    page.on("request", lambda request: request.method == "PUT" and saves.append(request.url))
    instructions.fill("Typed again after the conflict.")
    page.clock.run_for(10_000)  # far past the autosave delay: a save would have gone out by now
    expect(bar.get_by_text(CONFLICT, exact=True)).to_be_visible()
    assert saves == []
    assert draft_config(api, agent["id"])["instructions"] == "Saved in another tab."


def test_publish_without_a_model_lists_the_reasons(page: Page, agent: dict) -> None:
    page.goto(f"/agents/{agent['id']}/configure")
    page.get_by_role("button", name="Publish").click()

    alert = page.get_by_role("region", name="Publish bar").get_by_role("alert")
    expect(alert).to_contain_text("Publish failed")
    expect(alert.get_by_role("listitem")).not_to_have_count(0)
    expect(page.get_by_text("Not published", exact=True)).to_be_visible()
