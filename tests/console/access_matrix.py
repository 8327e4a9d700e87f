"""The console's routes under their access rules, and the console the access matrix runs against
(issue 31, class 4). The tests: test_access_matrix.py (every route is here; the feature asks every
public one), test_access_matrix_public.py (the web app and the service API in every state),
test_access_matrix_console.py (the console's JSON API, pages and runtime route).

`ROUTES` names each route of the app's route table (the JSON API, the public surfaces, the pages,
the runtime's internal route) with its rule; a route that is not there fails
`test_every_route_of_the_console_is_in_the_matrix`, by name. Each rule is then asked in every
state that matters, with the same request that succeeds once the rule lets it through, so a route
that stops checking (the web app's transcriptions forgetting the switch) fails, whatever the
scenarios about a disabled web app try.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from api_shortcuts import BROWSER_HEADERS, save_config, sign_in
from fastapi.routing import iter_route_contexts
from fastapi.testclient import TestClient

from agent_builder.console.db import new_id, utc_now
from agent_builder.console.schemas.chat import ChatMessage
from agent_builder.console.services import conversations
from agent_builder.console.services.conversations import Owner
from agent_builder.console.visitors import new_token, owner_of

UNREACHABLE_RUNTIME = "http://127.0.0.1:9"
AGENTS = "/console/api/agents"
WAV = b"RIFF....WAVEfmt voice-bytes"
END_USER = "alice"
FEATURE = Path(__file__).parents[2] / "features" / "agent" / "access-matrix.feature"

Surface = Literal["web_app", "service_api", "console", "page", "internal", "public"]


@dataclass(frozen=True)
class Rule:
    """Which access rule guards a route; `cross` names the child resource of another owner it
    must refuse (a console route with two ids), `why` why a public route has no rule."""

    surface: Surface
    cross: str | None = None
    why: str = ""


WEB_APP, SERVICE_API, PAGE, INTERNAL = Rule("web_app"), Rule("service_api"), Rule("page"), Rule("internal")
CONSOLE = Rule("console")


def _console_child(cross: str) -> Rule:
    return Rule("console", cross=cross)


def _public(why: str) -> Rule:
    return Rule("public", why=why)


ROUTES: dict[tuple[str, str], Rule] = {
    # The public web app: its page and its JSON API, gated by the site token, a published version
    # and the web app switch.
    ("GET", "/chat/{site_token}"): WEB_APP,
    ("POST", "/chat/{site_token}/api/messages"): WEB_APP,
    ("POST", "/chat/{site_token}/api/messages/{message_id}/stop"): WEB_APP,
    ("GET", "/chat/{site_token}/api/conversations/{conversation_id}/messages"): WEB_APP,
    ("POST", "/chat/{site_token}/api/audio/transcriptions"): WEB_APP,
    # The service API: an app API key of a published agent whose service API is on.
    ("GET", "/v1/info"): SERVICE_API,
    ("GET", "/v1/parameters"): SERVICE_API,
    ("POST", "/v1/chat-messages"): SERVICE_API,
    ("GET", "/v1/conversations/{conversation_id}/messages"): SERVICE_API,
    # The console's JSON API: a session (cookie or bearer); a child is found only through its owner.
    ("POST", "/console/api/logout"): CONSOLE,
    ("GET", "/console/api/me"): CONSOLE,
    ("GET", "/console/api/model-providers"): CONSOLE,
    ("POST", "/console/api/model-providers"): CONSOLE,
    ("GET", "/console/api/model-providers/{provider_id}"): CONSOLE,
    ("PATCH", "/console/api/model-providers/{provider_id}"): CONSOLE,
    ("DELETE", "/console/api/model-providers/{provider_id}"): CONSOLE,
    ("POST", "/console/api/model-providers/{provider_id}/validate"): CONSOLE,
    ("PATCH", "/console/api/model-providers/{provider_id}/models/{model_id}"): _console_child("model"),
    ("GET", "/console/api/models"): CONSOLE,
    ("GET", "/console/api/tools"): CONSOLE,
    ("GET", "/console/api/tool-credentials"): CONSOLE,
    ("POST", "/console/api/tool-credentials"): CONSOLE,
    ("DELETE", "/console/api/tool-credentials/{credential_id}"): CONSOLE,
    ("POST", "/console/api/tool-credentials/{credential_id}/check"): CONSOLE,
    ("GET", "/console/api/datasets"): CONSOLE,
    ("POST", "/console/api/datasets"): CONSOLE,
    ("GET", "/console/api/datasets/{dataset_id}"): CONSOLE,
    ("PATCH", "/console/api/datasets/{dataset_id}"): CONSOLE,
    ("DELETE", "/console/api/datasets/{dataset_id}"): CONSOLE,
    ("PATCH", "/console/api/datasets/{dataset_id}/segments/{segment_id}"): _console_child("segment"),
    ("POST", "/console/api/datasets/{dataset_id}/retrieve"): CONSOLE,
    ("POST", "/console/api/datasets/{dataset_id}/documents"): CONSOLE,
    ("GET", "/console/api/datasets/{dataset_id}/documents"): CONSOLE,
    ("GET", "/console/api/datasets/{dataset_id}/documents/{document_id}"): _console_child("document"),
    ("DELETE", "/console/api/datasets/{dataset_id}/documents/{document_id}"): _console_child("document"),
    ("GET", "/console/api/datasets/{dataset_id}/documents/{document_id}/segments"): _console_child(
        "document"
    ),
    ("GET", "/console/api/agents"): CONSOLE,
    ("POST", "/console/api/agents"): CONSOLE,
    ("GET", "/console/api/agents/{agent_id}"): CONSOLE,
    ("PATCH", "/console/api/agents/{agent_id}"): CONSOLE,
    ("DELETE", "/console/api/agents/{agent_id}"): CONSOLE,
    ("PUT", "/console/api/agents/{agent_id}/draft"): CONSOLE,
    ("PUT", "/console/api/agents/{agent_id}/draft/web-app"): CONSOLE,
    ("POST", "/console/api/agents/{agent_id}/publish"): CONSOLE,
    ("GET", "/console/api/agents/{agent_id}/versions"): CONSOLE,
    ("PATCH", "/console/api/agents/{agent_id}/access"): CONSOLE,
    ("GET", "/console/api/agents/{agent_id}/versions/{version}"): _console_child("version"),
    ("POST", "/console/api/agents/{agent_id}/versions/{version}/restore"): _console_child("version"),
    ("POST", "/console/api/agents/{agent_id}/duplicate"): CONSOLE,
    ("GET", "/console/api/agents/{agent_id}/env-vars"): CONSOLE,
    ("POST", "/console/api/agents/{agent_id}/env-vars"): CONSOLE,
    ("POST", "/console/api/agents/{agent_id}/env-vars/import"): CONSOLE,
    ("PATCH", "/console/api/agents/{agent_id}/env-vars/{name:env_var}"): _console_child("env_var"),
    ("DELETE", "/console/api/agents/{agent_id}/env-vars/{name:env_var}"): _console_child("env_var"),
    ("POST", "/console/api/agents/{agent_id}/api-keys"): CONSOLE,
    ("GET", "/console/api/agents/{agent_id}/api-keys"): CONSOLE,
    ("DELETE", "/console/api/agents/{agent_id}/api-keys/{key_id}"): _console_child("api_key"),
    ("POST", "/console/api/agents/{agent_id}/files"): CONSOLE,
    ("GET", "/console/api/agents/{agent_id}/files"): CONSOLE,
    ("DELETE", "/console/api/agents/{agent_id}/files/{file_id}"): _console_child("file"),
    ("GET", "/console/api/agents/{agent_id}/skills"): CONSOLE,
    ("POST", "/console/api/agents/{agent_id}/skills"): CONSOLE,
    ("PUT", "/console/api/agents/{agent_id}/skills/{skill_name}"): _console_child("skill"),
    ("DELETE", "/console/api/agents/{agent_id}/skills/{skill_name}"): _console_child("skill"),
    ("GET", "/console/api/system-models"): CONSOLE,
    ("PUT", "/console/api/system-models"): CONSOLE,
    ("POST", "/console/api/agents/{agent_id}/preview/messages"): CONSOLE,
    ("POST", "/console/api/agents/{agent_id}/preview/messages/{message_id}/stop"): _console_child(
        "preview_message"
    ),
    (
        "GET",
        "/console/api/agents/{agent_id}/preview/conversations/{conversation_id}/messages",
    ): _console_child("preview_conversation"),
    ("POST", "/console/api/agents/{agent_id}/build-assistant/proposal"): CONSOLE,
    ("GET", "/console/api/agents/{agent_id}/build-assistant/proposal"): CONSOLE,
    ("POST", "/console/api/agents/{agent_id}/build-assistant/proposal/apply"): CONSOLE,
    ("DELETE", "/console/api/agents/{agent_id}/build-assistant/proposal"): CONSOLE,
    ("POST", "/console/api/audio/transcriptions"): CONSOLE,
    ("POST", "/__test__/conversations"): CONSOLE,
    ("POST", "/__test__/agents/{agent_id}/publish"): CONSOLE,
    # The console's pages: a session, else the sign-in page.
    ("GET", "/agents"): PAGE,
    ("GET", "/agents/{agent_id}/configure"): PAGE,
    ("GET", "/agents/{agent_id}/access"): PAGE,
    ("GET", "/knowledge"): PAGE,
    ("GET", "/knowledge/{dataset_id}"): PAGE,
    ("GET", "/settings/model-providers"): PAGE,
    ("GET", "/settings/tools"): PAGE,
    # The runtime's route: a run's knowledge token.
    ("POST", "/internal/knowledge/retrieve"): INTERNAL,
    # Open to anyone, on purpose.
    ("POST", "/console/api/login"): _public("signing in"),
    ("GET", "/login"): _public("the sign-in page"),
    ("GET", "/"): _public("a redirect to /agents, which asks for the session"),
    ("GET", "/agents/{agent_id}"): _public("a redirect to the configure page, which asks for the session"),
    ("GET", "/settings"): _public("a redirect to /settings/model-providers, which asks for the session"),
    ("GET", "/docs/service-api"): _public("the service API reference integrators read"),
    ("GET", "/healthz"): _public("the readiness probe"),
    ("GET", "/openapi.json"): _public("the contract integrators generate clients from"),
}


def route_table(app: Any) -> set[tuple[str, str]]:
    """Every (method, path) the app answers, included routers' routes too (no static files)."""
    table = set()
    for route in iter_route_contexts(app.routes):
        for method in route.methods or ():
            if method != "HEAD":
                table.add((method, str(route.path)))
    return table


def routes_of(surface: Surface) -> list[tuple[str, str]]:
    return sorted(route for route, rule in ROUTES.items() if rule.surface == surface)


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


def conversation(client: TestClient, agent_id: str, source: Any, owner: Owner) -> tuple[str, str]:
    """A stored question and reply of `owner`; returns (conversation id, reply id)."""
    db = client.app.state.db
    conversation_id = new_id()
    conversations.start_turn(db, _message(conversation_id, "user", "Hi"), agent_id, source, owner, True)
    reply = _message(conversation_id, "assistant", "Hello")
    conversations.save_reply(db, reply)
    return conversation_id, reply.id


def site_token(client: TestClient, agent_id: str) -> str:
    """The site token the console keeps for an agent (a visitor learns it only once published)."""
    with client.app.state.db.read() as conn:
        token: str = conn.execute("SELECT site_token FROM agents WHERE id = ?", (agent_id,)).fetchone()[0]
    return token


def publish(client: TestClient, agent: dict[str, Any], model: dict[str, Any]) -> None:
    save_config(
        client,
        agent,
        instructions="Be helpful.",
        model={"provider_id": model["provider_id"], "name": model["name"]},
    )
    response = client.post(f"{AGENTS}/{agent['id']}/publish")
    assert response.status_code == 200, response.text


def api_key(client: TestClient, agent_id: str) -> dict[str, Any]:
    response = client.post(f"{AGENTS}/{agent_id}/api-keys", json={})
    assert response.status_code == 201, response.text
    return response.json()


@dataclass
class Console:
    """The console the matrix runs against: the admin's client and a published agent ("mine")
    with a web app visitor's conversation and a service API conversation."""

    admin: TestClient
    agent_id: str
    name: str
    site_token: str
    visitor_cookie: str
    web_conversation: str
    web_reply: str
    api_key: dict[str, Any]
    api_conversation: str
    model: dict[str, Any]

    def visitor(self) -> TestClient:
        """A browser with no session: the visitor's cookie only."""
        client = TestClient(self.admin.app, headers=BROWSER_HEADERS)
        client.cookies.set("ab_visitor", self.visitor_cookie)
        return client


def make_console(
    make_client: Callable[..., TestClient], published_agent: dict[str, Any], active_model: dict[str, Any]
) -> Console:
    """The console of the `published_agent` fixture, with no runtime and the test seeding router."""
    admin = make_client(
        runtime_url=UNREACHABLE_RUNTIME, runtime_token="console-tests-runtime-token", enable_test_seed=True
    )
    sign_in(admin)
    agent_id = published_agent["id"]
    visitor_cookie = new_token()
    visitor_owner = Owner(owner_of(visitor_cookie))
    web_conversation, web_reply = conversation(admin, agent_id, "web_app", visitor_owner)
    key = api_key(admin, agent_id)
    api_conversation, _ = conversation(admin, agent_id, "service_api", Owner(key["id"], END_USER))
    return Console(
        admin=admin,
        agent_id=agent_id,
        name=published_agent["name"],
        site_token=site_token(admin, agent_id),
        visitor_cookie=visitor_cookie,
        web_conversation=web_conversation,
        web_reply=web_reply,
        api_key=key,
        api_conversation=api_conversation,
        model=active_model,
    )
