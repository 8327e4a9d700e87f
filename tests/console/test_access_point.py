"""API keys, the web app JSON API and the service API of a published agent."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from api_shortcuts import assert_error, create_agent
from fastapi.testclient import TestClient

from agent_builder.console.errors import ApiError
from agent_builder.console.public import load_web_app

AGENTS = "/console/api/agents"
CHAT_BODY = {"query": "Hello", "response_mode": "blocking", "user": "user-1"}


def _key(client: TestClient, agent_id: str, **body: Any) -> dict[str, Any]:
    response = client.post(f"{AGENTS}/{agent_id}/api-keys", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def _bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def _site_token(agent: dict[str, Any]) -> str:
    return agent["access"]["web_app_url"].rsplit("/", 1)[1]


def test_api_key_is_shown_once_then_masked(client: TestClient, published_agent: dict[str, Any]) -> None:
    agent_id = published_agent["id"]
    key = _key(client, agent_id, name="Backend")
    assert key["name"] == "Backend" and key["created_at"]
    secret = key["secret"]
    assert secret.startswith("app-") and len(secret) == 36
    assert key["prefix"] == secret[:8]
    listing = client.get(f"{AGENTS}/{agent_id}/api-keys")
    assert listing.json()["data"] == [
        {
            "id": key["id"],
            "name": "Backend",
            "masked": f"{secret[:8]}…",
            "created_at": key["created_at"],
            "last_used_at": None,
        }
    ]
    assert secret not in listing.text and secret[8:] not in client.get(f"{AGENTS}/{agent_id}").text
    # Without a body the key gets a default name.
    response = client.post(f"{AGENTS}/{agent_id}/api-keys")
    assert response.status_code == 201 and response.json()["name"] == "API key"


def test_service_api_reads_the_published_config_and_records_key_use(
    client: TestClient, anon: TestClient, published_agent: dict[str, Any]
) -> None:
    agent_id = published_agent["id"]
    key = _key(client, agent_id)
    info = anon.get("/v1/info", headers=_bearer(key["secret"]))
    assert info.status_code == 200
    assert info.json() == {"name": "Published agent", "description": "Answers questions"}
    # Draft edits do not reach the public surface until published.
    detail = client.get(f"{AGENTS}/{agent_id}").json()
    config = {**detail["draft"]["config"], "opening_statement": "Draft only"}
    client.put(f"{AGENTS}/{agent_id}/draft", json={"revision": detail["draft"]["revision"], "config": config})
    parameters = anon.get("/v1/parameters", headers=_bearer(key["secret"])).json()
    assert parameters == {
        "opening_statement": "Hello there!",
        "suggested_questions": ["What can you do?", "Who are you?"],
    }
    last_used = client.get(f"{AGENTS}/{agent_id}/api-keys").json()["data"][0]["last_used_at"]
    assert last_used is not None and last_used >= key["created_at"]


def test_chat_messages_validates_then_reports_the_missing_runtime(
    client: TestClient, anon: TestClient, published_agent: dict[str, Any]
) -> None:
    headers = _bearer(_key(client, published_agent["id"])["secret"])
    assert_error(anon.post("/v1/chat-messages", headers=headers, json=CHAT_BODY), 503, "runtime_unavailable")
    for bad in ({**CHAT_BODY, "response_mode": "fast"}, {**CHAT_BODY, "query": ""}, {"query": "hi"}):
        assert_error(anon.post("/v1/chat-messages", headers=headers, json=bad), 422, "invalid_request")


def test_service_api_without_a_valid_key_is_401(anon: TestClient) -> None:
    bad_headers = [
        {},
        {"Authorization": "Bearer app-unknown"},
        {"Authorization": "Basic YTpi"},
        {"Authorization": "Bearer "},
    ]
    for headers in bad_headers:
        for method, path in (("GET", "/v1/info"), ("GET", "/v1/parameters"), ("POST", "/v1/chat-messages")):
            assert_error(anon.request(method, path, headers=headers, json=CHAT_BODY), 401, "invalid_api_key")


def test_revoked_keys_stop_working_at_once(
    client: TestClient, anon: TestClient, published_agent: dict[str, Any]
) -> None:
    agent_id = published_agent["id"]
    key, other = _key(client, agent_id), _key(client, agent_id)
    assert client.delete(f"{AGENTS}/{agent_id}/api-keys/{key['id']}").status_code == 204
    assert_error(anon.get("/v1/info", headers=_bearer(key["secret"])), 401, "invalid_api_key")
    assert anon.get("/v1/info", headers=_bearer(other["secret"])).status_code == 200
    assert [k["id"] for k in client.get(f"{AGENTS}/{agent_id}/api-keys").json()["data"]] == [other["id"]]
    assert_error(client.delete(f"{AGENTS}/{agent_id}/api-keys/{key['id']}"), 404, "not_found")


def test_service_api_switch_is_checked_on_every_route(
    client: TestClient, anon: TestClient, published_agent: dict[str, Any]
) -> None:
    agent_id = published_agent["id"]
    headers = _bearer(_key(client, agent_id)["secret"])
    client.patch(f"{AGENTS}/{agent_id}/access", json={"service_api_enabled": False})
    for method, path in (("GET", "/v1/info"), ("GET", "/v1/parameters"), ("POST", "/v1/chat-messages")):
        assert_error(anon.request(method, path, headers=headers, json=CHAT_BODY), 403, "service_api_disabled")
    client.patch(f"{AGENTS}/{agent_id}/access", json={"service_api_enabled": True})
    assert anon.get("/v1/info", headers=headers).status_code == 200


def test_keys_of_unpublished_agents_do_not_open_the_service_api(client: TestClient, anon: TestClient) -> None:
    agent = create_agent(client)
    key = _key(client, agent["id"])
    assert_error(anon.get("/v1/info", headers=_bearer(key["secret"])), 403, "service_api_disabled")


def test_api_keys_of_unknown_agents_are_404(client: TestClient) -> None:
    assert_error(client.post(f"{AGENTS}/nope/api-keys", json={}), 404, "not_found")
    assert_error(client.get(f"{AGENTS}/nope/api-keys"), 404, "not_found")
    agent = create_agent(client)
    assert_error(
        client.post(f"{AGENTS}/{agent['id']}/api-keys", json={"name": "x" * 81}), 422, "invalid_request"
    )


def test_web_app_api_is_gated_by_its_switch(
    client: TestClient, anon: TestClient, published_agent: dict[str, Any]
) -> None:
    url = f"/chat/{_site_token(published_agent)}/api/messages"
    assert_error(anon.post(url, json={"query": "Hi"}), 503, "runtime_unavailable")
    assert_error(anon.post(url, json={"query": ""}), 422, "invalid_request")
    client.patch(f"{AGENTS}/{published_agent['id']}/access", json={"web_app_enabled": False})
    body = assert_error(anon.post(url, json={"query": "Hi"}), 403, "web_app_disabled")
    assert body["message"] == "This web app is unavailable."
    assert_error(anon.post("/chat/unknown-token/api/messages", json={"query": "Hi"}), 404, "not_found")


def test_load_web_app_reads_the_published_config(client: TestClient, published_agent: dict[str, Any]) -> None:
    token = _site_token(published_agent)
    request = SimpleNamespace(app=client.app)  # load_web_app only needs request.app
    view = load_web_app(request, token)  # type: ignore[arg-type]
    assert (view.agent_name, view.description, view.site_token) == (
        "Published agent",
        "Answers questions",
        token,
    )
    assert (view.opening_statement, view.suggested_questions) == (
        "Hello there!",
        ["What can you do?", "Who are you?"],
    )

    client.patch(f"{AGENTS}/{published_agent['id']}/access", json={"web_app_enabled": False})
    with pytest.raises(ApiError) as disabled:
        load_web_app(request, token)  # type: ignore[arg-type]
    assert (disabled.value.status_code, disabled.value.code) == (403, "web_app_disabled")

    never_published = create_agent(client)
    with client.app.state.db.read() as conn:
        (unpublished_token,) = conn.execute(
            "SELECT site_token FROM agents WHERE id = ?", (never_published["id"],)
        ).fetchone()
    for unknown in (unpublished_token, "no-such-token"):
        with pytest.raises(ApiError) as missing:
            load_web_app(request, unknown)  # type: ignore[arg-type]
        assert (missing.value.status_code, missing.value.code) == (404, "not_found")


def test_service_api_reference_page(anon: TestClient) -> None:
    response = anon.get("/docs/service-api")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    assert "<h1>Service API reference</h1>" in response.text
    assert "http://testserver/v1" in response.text and "/chat-messages" in response.text


def test_web_app_page_statuses_follow_the_contract(
    client: TestClient, anon: TestClient, published_agent: dict[str, Any]
) -> None:
    page = f"/chat/{_site_token(published_agent)}"
    response = anon.get(page)
    assert response.status_code == 200 and "Published agent" in response.text
    assert anon.get("/chat/no-such-token").status_code == 404
    client.patch(f"{AGENTS}/{published_agent['id']}/access", json={"web_app_enabled": False})
    disabled = anon.get(page)
    assert disabled.status_code == 403 and "This web app is unavailable" in disabled.text
