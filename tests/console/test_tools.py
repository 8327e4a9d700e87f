from __future__ import annotations

from typing import Any

from api_shortcuts import assert_error
from fastapi.testclient import TestClient

from agent_builder.console.services.tools import web_search_endpoint
from tests.fakes.upstream import FakeUpstream, Raw


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


def _web_search_state(client: TestClient) -> str:
    tools = client.get("/console/api/tools").json()["data"]
    state: str = next(tool["credential_state"] for tool in tools if tool["name"] == "web_search")
    return state


def _add(client: TestClient, name: str, base_url: str | None) -> dict[str, Any]:
    body = {"tool": "web_search", "name": name, "secret": "search-secret-1234"}
    response = client.post(
        "/console/api/tool-credentials", json=body | ({"base_url": base_url} if base_url else {})
    )
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def test_credential_states_follow_the_checks(client: TestClient, fake_upstream: FakeUpstream) -> None:
    states = {t["name"]: t["credential_state"] for t in client.get("/console/api/tools").json()["data"]}
    assert states == {
        "json_replace": "not_required",
        "sandbox_shell": "not_required",
        "knowledge_search": "not_required",
        "web_search": "missing",
    }
    no_url = _add(client, "no-url", None)
    assert (no_url["check_status"], no_url["check_message"], no_url["checked_at"]) == (
        "unchecked",
        None,
        None,
    )
    assert _web_search_state(client) == "configured"  # not checked yet: nothing says it fails
    checked = client.post(f"/console/api/tool-credentials/{no_url['id']}/check").json()
    assert checked["check_status"] == "invalid" and checked["checked_at"]
    assert checked["check_message"].startswith("no base URL")
    assert client.get("/console/api/tool-credentials").json()["data"] == [checked]
    assert _web_search_state(client) == "invalid"  # its only credential failed

    working = _add(client, "working", f"{fake_upstream.url}/search/v1")
    passed = client.post(f"/console/api/tool-credentials/{working['id']}/check").json()
    assert (passed["check_status"], passed["check_message"]) == ("valid", None)
    assert fake_upstream.calls("/search/")[-1].headers["authorization"] == "Bearer search-secret-1234"
    assert _web_search_state(client) == "configured"  # one credential is usable


def test_a_refused_or_unreachable_provider_fails_the_check(
    client: TestClient, fake_upstream: FakeUpstream
) -> None:
    credential = _add(client, "refused", f"{fake_upstream.url}/search/v1")
    fake_upstream.search_answer = Raw(b'{"message": "bad key search-secret-1234"}', 401)
    refused = client.post(f"/console/api/tool-credentials/{credential['id']}/check").json()
    assert refused["check_message"] == "HTTP 401: the provider refused the secret"
    gone = _add(client, "gone", "http://127.0.0.1:9")
    unreachable = client.post(f"/console/api/tool-credentials/{gone['id']}/check").json()
    assert (unreachable["check_status"], unreachable["check_message"]) == ("invalid", "connection refused")
    assert _web_search_state(client) == "invalid"


def test_checking_an_unknown_credential_is_404(client: TestClient) -> None:
    assert_error(client.post("/console/api/tool-credentials/nope/check"), 404, "not_found")


def test_runs_skip_a_credential_that_failed_its_check(
    client: TestClient, fake_upstream: FakeUpstream
) -> None:
    db = client.app.state.db  # type: ignore[attr-defined]

    def used() -> str | None:
        endpoint = web_search_endpoint(db)
        return endpoint.base_url if endpoint else None

    good = _add(client, "good", f"{fake_upstream.url}/search/v1")
    bad = _add(client, "bad", "http://127.0.0.1:9")  # the newer one
    assert used() == "http://127.0.0.1:9"
    client.post(f"/console/api/tool-credentials/{bad['id']}/check")
    assert used() == f"{fake_upstream.url}/search/v1"
    client.post(f"/console/api/tool-credentials/{good['id']}/check")
    assert used() == f"{fake_upstream.url}/search/v1"  # it passed
