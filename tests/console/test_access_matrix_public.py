"""The web app's and the service API's routes in every state of their access rule (issue 31,
class 4; the matrix and its console: access_matrix.py). Web app: unknown site token, an agent
never published, a deleted agent, the web app switched off, and on. Service API: no key, an
unknown key, a revoked key, a key of an agent never published or deleted, the service API
switched off, and on. Each route gets the request it answers once let through."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import pytest
from access_matrix import (
    AGENTS,
    END_USER,
    WAV,
    Console,
    api_key,
    make_console,
    publish,
    routes_of,
    site_token,
)
from api_shortcuts import assert_error, create_agent
from fastapi.testclient import TestClient


@pytest.fixture
def console(
    make_client: Callable[..., TestClient], published_agent: dict[str, Any], active_model: dict[str, Any]
) -> Console:
    return make_console(make_client, published_agent, active_model)


# --- The web app ---------------------------------------------------------------------------

WebAppState = Literal["unknown", "unpublished", "deleted", "disabled", "enabled"]


def _web_app_token(console: Console, state: WebAppState) -> str:
    """The site token a visitor uses in this state (the agent's own for disabled and enabled)."""
    admin = console.admin
    if state == "unknown":
        return "no-such-site-token"
    if state == "unpublished":
        return site_token(admin, create_agent(admin, "Never published")["id"])
    if state == "deleted":
        agent = create_agent(admin, "Deleted")
        publish(admin, agent, console.model)
        token = site_token(admin, agent["id"])
        assert admin.delete(f"{AGENTS}/{agent['id']}").status_code == 204
        return token
    if state == "disabled":
        response = admin.patch(f"{AGENTS}/{console.agent_id}/access", json={"web_app_enabled": False})
        assert response.status_code == 200, response.text
    return console.site_token


def _web_app_request(console: Console, route: tuple[str, str], token: str) -> Any:
    """The visitor's request to the route, exactly as it succeeds while the web app is on."""
    visitor = console.visitor()
    base = f"/chat/{token}"
    match route:
        case ("GET", "/chat/{site_token}"):
            return visitor.get(base)
        case ("POST", "/chat/{site_token}/api/messages"):
            return visitor.post(
                f"{base}/api/messages", json={"query": "Hi", "conversation_id": console.web_conversation}
            )
        case ("POST", "/chat/{site_token}/api/messages/{message_id}/stop"):
            return visitor.post(f"{base}/api/messages/{console.web_reply}/stop")
        case ("GET", "/chat/{site_token}/api/conversations/{conversation_id}/messages"):
            return visitor.get(f"{base}/api/conversations/{console.web_conversation}/messages")
        case ("POST", "/chat/{site_token}/api/audio/transcriptions"):
            return visitor.post(
                f"{base}/api/audio/transcriptions", files={"file": ("voice.wav", WAV, "audio/wav")}
            )
    raise AssertionError(f"no request for the web app route {route}: add one to _web_app_request")


def _web_app_allowed(console: Console, route: tuple[str, str], response: Any) -> None:
    """What each route answers once the web app lets the visitor through."""
    match route:
        case ("GET", "/chat/{site_token}"):
            assert response.status_code == 200 and console.name in response.text, response.text
        case ("POST", "/chat/{site_token}/api/messages"):
            assert_error(response, 503, "runtime_unavailable")  # past every check, on to the runtime
        case ("POST", "/chat/{site_token}/api/messages/{message_id}/stop"):
            assert response.status_code == 200, response.text
            assert response.json()["id"] == console.web_reply
        case ("GET", "/chat/{site_token}/api/conversations/{conversation_id}/messages"):
            assert response.status_code == 200, response.text
            assert [m["content"] for m in response.json()["data"]] == ["Hi", "Hello"]
        case ("POST", "/chat/{site_token}/api/audio/transcriptions"):
            assert_error(response, 409, "speech_to_text_not_configured")  # past the web app's checks
        case _:
            raise AssertionError(f"no expectation for the web app route {route}")


WEB_APP_ROUTES = routes_of("web_app")
WEB_APP_STATES: list[WebAppState] = ["unknown", "unpublished", "deleted", "disabled", "enabled"]


@pytest.mark.parametrize("state", WEB_APP_STATES)
@pytest.mark.parametrize("route", WEB_APP_ROUTES, ids=" ".join)
def test_web_app_route_by_state(console: Console, route: tuple[str, str], state: WebAppState) -> None:
    response = _web_app_request(console, route, _web_app_token(console, state))
    if state == "enabled":
        _web_app_allowed(console, route, response)
        return
    status, code = (403, "web_app_disabled") if state == "disabled" else (404, "not_found")
    if route == ("GET", "/chat/{site_token}"):
        assert response.status_code == status, (state, response.status_code, response.text[:200])
        assert console.name not in response.text
    else:
        assert_error(response, status, code)


# --- The service API -----------------------------------------------------------------------

ServiceState = Literal[
    "no key", "unknown key", "revoked key", "unpublished", "deleted", "disabled", "enabled"
]


def _service_key(console: Console, state: ServiceState) -> str | None:
    admin = console.admin
    match state:
        case "no key":
            return None
        case "unknown key":
            return "app-made-up-key-0123456789abcdefghijklmn"
        case "revoked key":
            key = api_key(admin, console.agent_id)
            assert admin.delete(f"{AGENTS}/{console.agent_id}/api-keys/{key['id']}").status_code == 204
            return str(key["secret"])
        case "unpublished":
            return str(api_key(admin, create_agent(admin, "Never published")["id"])["secret"])
        case "deleted":
            agent = create_agent(admin, "Deleted")
            publish(admin, agent, console.model)
            secret = str(api_key(admin, agent["id"])["secret"])
            assert admin.delete(f"{AGENTS}/{agent['id']}").status_code == 204
            return secret
        case "disabled":
            response = admin.patch(f"{AGENTS}/{console.agent_id}/access", json={"service_api_enabled": False})
            assert response.status_code == 200, response.text
    return str(console.api_key["secret"])


def _service_request(console: Console, route: tuple[str, str], secret: str | None) -> Any:
    client = TestClient(console.admin.app)
    headers = {"Authorization": f"Bearer {secret}"} if secret else {}
    match route:
        case ("GET", "/v1/info"):
            return client.get("/v1/info", headers=headers)
        case ("GET", "/v1/parameters"):
            return client.get("/v1/parameters", headers=headers)
        case ("POST", "/v1/chat-messages"):
            body = {
                "query": "More",
                "response_mode": "blocking",
                "user": END_USER,
                "conversation_id": console.api_conversation,
            }
            return client.post("/v1/chat-messages", headers=headers, json=body)
        case ("GET", "/v1/conversations/{conversation_id}/messages"):
            url = f"/v1/conversations/{console.api_conversation}/messages"
            return client.get(url, headers=headers, params={"user": END_USER})
    raise AssertionError(f"no request for the service API route {route}: add one to _service_request")


def _service_allowed(console: Console, route: tuple[str, str], response: Any) -> None:
    match route:
        case ("GET", "/v1/info"):
            assert response.status_code == 200 and response.json()["name"] == console.name, response.text
        case ("GET", "/v1/parameters"):
            assert response.status_code == 200 and response.json()["opening_statement"] == "Hello there!"
        case ("POST", "/v1/chat-messages"):
            assert_error(response, 503, "runtime_unavailable")  # past every check, on to the runtime
        case ("GET", "/v1/conversations/{conversation_id}/messages"):
            assert response.status_code == 200, response.text
            assert [m["content"] for m in response.json()["data"]] == ["Hi", "Hello"]
        case _:
            raise AssertionError(f"no expectation for the service API route {route}")


SERVICE_ROUTES = routes_of("service_api")
SERVICE_STATES: list[ServiceState] = [
    "no key",
    "unknown key",
    "revoked key",
    "unpublished",
    "deleted",
    "disabled",
    "enabled",
]


@pytest.mark.parametrize("state", SERVICE_STATES)
@pytest.mark.parametrize("route", SERVICE_ROUTES, ids=" ".join)
def test_service_api_route_by_state(console: Console, route: tuple[str, str], state: ServiceState) -> None:
    response = _service_request(console, route, _service_key(console, state))
    if state == "enabled":
        _service_allowed(console, route, response)
    elif state in ("unpublished", "disabled"):
        assert_error(response, 403, "service_api_disabled")
    else:
        assert_error(response, 401, "invalid_api_key")
