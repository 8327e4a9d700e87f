"""A conversation belongs to whoever started it: a web app visitor (their cookie) or a service
API key with the client's `user`. Anyone who knows only its id gets 404, for every route."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import pytest
from api_shortcuts import BROWSER_HEADERS, assert_error, sign_in
from fastapi.testclient import TestClient

from agent_builder.console.db import new_id, utc_now
from agent_builder.console.schemas.chat import ChatMessage
from agent_builder.console.services import conversations
from agent_builder.console.services.conversations import Owner

# Runs get as far as the runtime, which is not there: 503 proves the ownership check passed.
UNREACHABLE_RUNTIME = "http://127.0.0.1:9"


@pytest.fixture
def console(make_client: Callable[..., TestClient], published_agent: dict[str, Any]) -> TestClient:
    client = make_client(runtime_url=UNREACHABLE_RUNTIME, runtime_token="console-tests-runtime-token")
    sign_in(client)
    return client


def _message(conversation_id: str, role: str, content: str) -> ChatMessage:
    return ChatMessage.model_validate(
        {
            "id": new_id(),
            "conversation_id": conversation_id,
            "role": role,
            "content": content,
            "status": "completed",
            "error": None,
            "tool_calls": [],
            "retries": 0,
            "usage": None,
            "agent_version": 1,
            "created_at": utc_now(),
        }
    )


def _conversation(client: TestClient, agent: dict[str, Any], source: Any, owner: Owner) -> tuple[str, str]:
    """A stored question and reply of `owner`; returns (conversation id, reply id)."""
    db = client.app.state.db
    conversation_id = new_id()
    conversations.start_turn(db, _message(conversation_id, "user", "Hi"), agent["id"], source, owner, True)
    reply = _message(conversation_id, "assistant", "Hello")
    conversations.save_reply(db, reply)
    return conversation_id, reply.id


def _visitor(console: TestClient, agent: dict[str, Any]) -> tuple[TestClient, str]:
    """A browser that opened the web app: its client, and the owner id of its cookie."""
    browser = TestClient(console.app, headers=BROWSER_HEADERS)
    assert browser.get(agent["access"]["web_app_url"].removeprefix("http://testserver")).status_code == 200
    token = browser.cookies["ab_visitor"]
    return browser, hashlib.sha256(token.encode()).hexdigest()


def test_a_web_app_conversation_is_its_visitors_alone(
    console: TestClient, published_agent: dict[str, Any]
) -> None:
    api = f"/chat/{published_agent['access']['web_app_url'].rsplit('/', 1)[1]}/api"
    alice, alice_owner = _visitor(console, published_agent)
    mallory, _ = _visitor(console, published_agent)
    no_cookie = TestClient(console.app, headers=BROWSER_HEADERS)
    conversation_id, reply_id = _conversation(console, published_agent, "web_app", Owner(alice_owner))

    listed = alice.get(f"{api}/conversations/{conversation_id}/messages")
    assert [m["content"] for m in listed.json()["data"]] == ["Hi", "Hello"]
    assert alice.post(f"{api}/messages/{reply_id}/stop").json()["id"] == reply_id
    continued = alice.post(f"{api}/messages", json={"query": "More", "conversation_id": conversation_id})
    assert_error(continued, 503, "runtime_unavailable")  # past the ownership check

    for stranger in (mallory, no_cookie):
        assert_error(stranger.get(f"{api}/conversations/{conversation_id}/messages"), 404, "not_found")
        assert_error(stranger.post(f"{api}/messages/{reply_id}/stop"), 404, "not_found")
        body = {"query": "More", "conversation_id": conversation_id}
        assert_error(stranger.post(f"{api}/messages", json=body), 404, "not_found")


def test_a_made_up_visitor_cookie_is_no_one(console: TestClient, published_agent: dict[str, Any]) -> None:
    api = f"/chat/{published_agent['access']['web_app_url'].rsplit('/', 1)[1]}/api"
    conversation_id, _ = _conversation(console, published_agent, "web_app", Owner(None))  # ownerless
    forged = TestClient(console.app, headers=BROWSER_HEADERS, cookies={"ab_visitor": "x"})
    assert_error(forged.get(f"{api}/conversations/{conversation_id}/messages"), 404, "not_found")


def test_the_web_app_sets_an_httponly_visitor_cookie(
    console: TestClient, published_agent: dict[str, Any]
) -> None:
    api = f"/chat/{published_agent['access']['web_app_url'].rsplit('/', 1)[1]}/api"
    fresh = TestClient(console.app, headers=BROWSER_HEADERS)
    refused = fresh.post(f"{api}/messages", json={"query": "Hi"})  # no runtime: nothing is stored
    assert_error(refused, 503, "runtime_unavailable")
    page = fresh.get(published_agent["access"]["web_app_url"].removeprefix("http://testserver"))
    cookie = next(c for c in page.headers.get_list("set-cookie") if c.startswith("ab_visitor="))
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/chat/" in cookie


def test_a_service_api_conversation_is_its_key_and_users_alone(
    console: TestClient, published_agent: dict[str, Any]
) -> None:
    agent_id = published_agent["id"]
    keys = [console.post(f"/console/api/agents/{agent_id}/api-keys", json={}).json() for _ in range(2)]
    mine, other_key = ({"Authorization": f"Bearer {key['secret']}"} for key in keys)
    conversation_id, _ = _conversation(console, published_agent, "service_api", Owner(keys[0]["id"], "alice"))
    public = TestClient(console.app)
    url = f"/v1/conversations/{conversation_id}/messages"

    assert len(public.get(url, headers=mine, params={"user": "alice"}).json()["data"]) == 2
    body = {"query": "More", "response_mode": "blocking", "user": "alice", "conversation_id": conversation_id}
    assert_error(public.post("/v1/chat-messages", headers=mine, json=body), 503, "runtime_unavailable")

    for headers, user in ((mine, "bob"), (other_key, "alice")):
        assert_error(public.get(url, headers=headers, params={"user": user}), 404, "not_found")
        continued = public.post("/v1/chat-messages", headers=headers, json={**body, "user": user})
        assert_error(continued, 404, "not_found")
    assert_error(public.get(url, headers=mine), 422, "invalid_request")  # `user` is required
