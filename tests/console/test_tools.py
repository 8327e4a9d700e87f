from __future__ import annotations

from api_shortcuts import assert_error
from fastapi.testclient import TestClient


def test_catalog_lists_the_builtins(client: TestClient) -> None:
    tools = client.get("/console/api/tools").json()["data"]
    assert [t["name"] for t in tools] == ["json_replace", "sandbox_shell", "knowledge_search", "web_search"]
    assert {t["name"] for t in tools if t["requires_credential"]} == {"web_search"}
    assert all(t["label"] and t["description"] and t["credential_configured"] is False for t in tools)


def test_credential_lifecycle_never_returns_the_secret(client: TestClient) -> None:
    secret = "tvly-secret-0123456789"
    response = client.post(
        "/console/api/tool-credentials",
        json={
            "tool": "web_search",
            "name": "Search",
            "secret": secret,
            "base_url": "https://search.example/api/",
        },
    )
    assert response.status_code == 201, response.text
    credential = response.json()
    assert credential["secret_masked"] == "…6789"
    assert credential["base_url"] == "https://search.example/api"
    assert credential["tool"] == "web_search" and credential["created_at"]
    listed = client.get("/console/api/tool-credentials")
    assert listed.json()["data"] == [credential] and secret not in listed.text
    web_search = next(t for t in client.get("/console/api/tools").json()["data"] if t["name"] == "web_search")
    assert web_search["credential_configured"] is True

    assert client.delete(f"/console/api/tool-credentials/{credential['id']}").status_code == 204
    assert client.get("/console/api/tool-credentials").json()["data"] == []
    assert_error(client.delete(f"/console/api/tool-credentials/{credential['id']}"), 404, "not_found")


def test_unknown_tool_is_404_and_credential_free_tool_is_400(client: TestClient) -> None:
    body = {"name": "x", "secret": "s3cret"}
    assert_error(
        client.post("/console/api/tool-credentials", json={**body, "tool": "nope"}), 404, "not_found"
    )
    assert_error(
        client.post("/console/api/tool-credentials", json={**body, "tool": "json_replace"}),
        400,
        "invalid_request",
    )
    bad = client.post(
        "/console/api/tool-credentials", json={**body, "tool": "web_search", "base_url": "nope"}
    )
    assert assert_error(bad, 422, "invalid_request")["errors"][0]["field"] == "base_url"
    assert client.get("/console/api/tool-credentials").json()["data"] == []
