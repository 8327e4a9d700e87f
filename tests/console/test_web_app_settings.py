"""The web app's settings: saved into the draft by their own route (whatever the revision, the
rest of the draft kept), refused with the field and the reason, and shown by the published web
app only (title, description, icon, colour, copyright, privacy policy link, language)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from api_shortcuts import create_agent, save_config, sign_in
from fastapi.testclient import TestClient

SETTINGS = {
    "title": "Zephyr Help Desk",
    "description": "Answers about Zephyr orders.",
    "icon": "🦓",
    "color": "green",
    "copyright": "© 2026 Zephyr Ltd",
    "privacy_policy_url": "https://zephyr.example/privacy",
    "default_language": "de",
}


def _put(client: TestClient, agent: dict[str, Any], body: dict[str, Any]) -> Any:
    return client.put(f"/console/api/agents/{agent['id']}/draft/web-app", json=body)


def test_settings_are_saved_into_the_draft_keeping_the_rest(client: TestClient) -> None:
    agent = create_agent(client)
    saved = save_config(client, agent, instructions="Keep me.", opening_statement="Hi there.")
    response = _put(client, agent, SETTINGS)
    assert response.status_code == 200, response.text
    draft = response.json()
    assert draft["revision"] == saved["revision"] + 1
    assert draft["config"] == {**saved["config"], "web_app": SETTINGS}
    detail = client.get(f"/console/api/agents/{agent['id']}").json()
    assert detail["draft"]["config"]["web_app"] == SETTINGS
    # Empty fields fall back on the page; a partial body keeps the defaults of what it leaves out.
    partial = _put(client, agent, {"title": "  Only a title  "}).json()["config"]["web_app"]
    assert partial == {
        "title": "Only a title",
        "description": "",
        "icon": "",
        "color": "blue",
        "copyright": "",
        "privacy_policy_url": "",
        "default_language": "en",
    }


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        (
            "privacy_policy_url",
            "javascript:alert(1)",
            "The privacy policy link must be an http:// or https:// URL.",
        ),
        (
            "privacy_policy_url",
            "zephyr.example/privacy",
            "The privacy policy link must be an http:// or https:// URL.",
        ),
        ("color", "#0a7d4f", "Input should be 'blue', 'green', 'purple', 'orange', 'red', 'teal' or 'gray'"),
        ("default_language", "xx", "Input should be 'en', 'de', 'fr', 'es' or 'ja'"),
        ("title", "T" * 81, "String should have at most 80 characters"),
        ("icon", "🦓" * 9, "String should have at most 8 characters"),
    ],
)
def test_invalid_settings_are_refused_with_the_field(
    client: TestClient, field: str, value: str, message: str
) -> None:
    agent = create_agent(client)
    before = client.get(f"/console/api/agents/{agent['id']}").json()["draft"]
    response = _put(client, agent, {**SETTINGS, field: value})
    assert response.status_code == 422, response.text
    body = response.json()
    assert body["code"] == "invalid_request"
    assert body["errors"] == [{"field": field, "message": message}], body
    assert client.get(f"/console/api/agents/{agent['id']}").json()["draft"] == before


def test_unknown_agent_is_404(client: TestClient) -> None:
    response = _put(client, {"id": "nope"}, SETTINGS)
    assert (response.status_code, response.json()["code"]) == (404, "not_found")


def test_anonymous_callers_are_refused(client: TestClient, anon: TestClient) -> None:
    agent = create_agent(client)
    response = anon.put(f"/console/api/agents/{agent['id']}/draft/web-app", json=SETTINGS)
    assert response.status_code == 401, response.text


def test_the_web_app_shows_the_published_settings_only(make_client: Any) -> None:
    client = make_client(enable_test_seed=True)
    sign_in(client)
    agent = create_agent(client, name="Plain name", description="Plain description")
    _put(client, agent, SETTINGS)
    client.post(f"/__test__/agents/{agent['id']}/publish", json={}).raise_for_status()
    web_app_url = client.get(f"/console/api/agents/{agent['id']}").json()["access"]["web_app_url"]
    page = TestClient(client.app).get("/chat/" + web_app_url.rsplit("/", 1)[-1]).text
    assert '<html lang="de">' in page
    assert "<h1>Zephyr Help Desk</h1>" in page and "Plain name" not in page
    assert "Answers about Zephyr orders." in page and "Plain description" not in page
    assert 'aria-label="Icon">🦓</span>' in page
    assert '<main id="main" class="chat web-app-color-green"' in page
    assert "© 2026 Zephyr Ltd" in page
    assert re.search(r'<a href="https://zephyr.example/privacy"[^>]*>Datenschutzerklärung</a>', page)
    assert ">Senden</button>" in page

    # A draft change shows only once published again.
    _put(client, agent, {**SETTINGS, "title": "Draft title", "default_language": "en"})
    page = TestClient(client.app).get("/chat/" + web_app_url.rsplit("/", 1)[-1]).text
    assert "<h1>Zephyr Help Desk</h1>" in page and "Draft title" not in page
