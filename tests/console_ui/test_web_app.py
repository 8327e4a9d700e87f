"""The public web app page follows the access point switch."""

import httpx
from playwright.sync_api import Page, expect


def publish(api: httpx.Client, agent: dict, model: dict) -> None:
    draft = api.get(f"/console/api/agents/{agent['id']}").raise_for_status().json()["draft"]
    config = {
        **draft["config"],
        "instructions": "Be brief.",
        "model": model,
        "opening_statement": "Hello! Ask me anything.",
        "suggested_questions": ["What can you do?"],
    }
    api.put(
        f"/console/api/agents/{agent['id']}/draft", json={"revision": draft["revision"], "config": config}
    ).raise_for_status()
    api.post(f"/console/api/agents/{agent['id']}/publish").raise_for_status()


def test_turning_the_web_app_off_makes_its_page_answer_403(
    page: Page, agent: dict, api: httpx.Client, active_model: dict
) -> None:
    publish(api, agent, active_model)
    page.goto(f"/agents/{agent['id']}/access")
    expect(page.get_by_text("Published v1 · up to date", exact=True)).to_be_visible()
    web_app_url = page.get_by_role("link", name="Open web app").get_attribute("href")

    chat = page.context.new_page()
    assert chat.goto(web_app_url).status == 200
    expect(chat.get_by_role("heading", name=agent["name"])).to_be_visible()
    expect(chat.get_by_role("log", name="Conversation")).to_contain_text("Hello! Ask me anything.")

    page.get_by_label("Web app enabled").uncheck()
    expect(page.get_by_text("Web app is disabled", exact=True)).to_be_visible()

    assert chat.goto(web_app_url).status == 403
    expect(chat.get_by_role("heading", name="This web app is unavailable")).to_be_visible()
    chat.close()
