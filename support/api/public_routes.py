"""Every public route of a published agent as its client calls it: the web app's page and JSON
API (a visitor's browser, with the visitor's cookie), and the service API (an integrator with
an app API key). For the access matrix (features/agent/access-matrix.feature): each route gets
the request it answers once its access rule lets the caller through, so a route that forgets
the rule answers it where it should refuse.

A route is named as the console names it: `METHOD path`, the path as in /openapi.json.
tests/console/test_access_matrix.py fails when the console has a public route this module (and
the feature's Examples) do not name; `documented_routes` reads what a running console documents,
for the same check against any deployment, and for the console routes asked without a session.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import httpx
from playwright.sync_api import APIRequestContext

from support.api.contract import served_schema
from support.settings.network import tls

_TIMEOUT_S = 15.0
# A recording the console refuses by its type, after every access check: no speech-to-text model
# is asked, whatever the console has configured.
NOT_AUDIO = {"name": "notes.txt", "mimeType": "text/plain", "buffer": b"not a recording"}
# A conversation the integrator's key never started.
UNKNOWN_CONVERSATION = "0" * 32

WEB_APP_ROUTES = (
    "GET /chat/{site_token}",
    "POST /chat/{site_token}/api/messages",
    "POST /chat/{site_token}/api/messages/{message_id}/stop",
    "GET /chat/{site_token}/api/conversations/{conversation_id}/messages",
    "POST /chat/{site_token}/api/audio/transcriptions",
)
SERVICE_API_ROUTES = (
    "GET /v1/info",
    "GET /v1/parameters",
    "POST /v1/chat-messages",
    "GET /v1/conversations/{conversation_id}/messages",
)


@dataclass(frozen=True)
class Answer:
    """What a route answered: its status and body (JSON for the APIs, HTML for the page)."""

    route: str
    status: int
    text: str

    def json(self) -> Any:
        try:
            return json.loads(self.text)
        except ValueError:
            raise AssertionError(
                f"{self.route} answered {self.status} without JSON: {self.text[:200]!r}"
            ) from None


@dataclass(frozen=True)
class VisitorConversation:
    """A web app visitor's conversation: what the visitor's page knows of it."""

    conversation_id: str
    reply_id: str  # the assistant message the page would stop


def visitor_request(
    request: APIRequestContext,
    console_url: str,
    route: str,
    site_token: str,
    conversation: VisitorConversation,
) -> Answer:
    """Send `route` as the web app page does from the visitor's browser (its cookies, and the
    console's own origin on a change), in the visitor's conversation."""
    method, path = _known(route, WEB_APP_ROUTES)
    url = console_url.rstrip("/") + path.format(
        site_token=site_token, message_id=conversation.reply_id, conversation_id=conversation.conversation_id
    )
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(console_url))
    options: dict[str, Any] = {"method": method, "headers": {"Origin": origin}, "timeout": _TIMEOUT_S * 1000}
    if route == "POST /chat/{site_token}/api/messages":
        options["data"] = {"query": "Hello", "conversation_id": conversation.conversation_id}
    elif route == "POST /chat/{site_token}/api/audio/transcriptions":
        options["multipart"] = {"file": NOT_AUDIO}
    response = request.fetch(url, **options)
    return Answer(route, response.status, response.text())


def integrator_request(
    service_api_url: str, secret: str | None, route: str, user: str, body: str | None = None
) -> Answer:
    """Send `route` as an integrator does, with the API key `secret` (none: no Authorization);
    `body` as given, byte for byte, in place of the route's own JSON body."""
    method, path = _known(route, SERVICE_API_ROUTES)
    headers = {"Authorization": f"Bearer {secret}"} if secret else {}
    content = None
    params = None
    if body is not None:
        headers["Content-Type"] = "application/json"
        content = body.encode()
    elif route == "POST /v1/chat-messages":
        content = json.dumps({"query": "Hello", "response_mode": "blocking", "user": user}).encode()
        headers["Content-Type"] = "application/json"
    elif route == "GET /v1/conversations/{conversation_id}/messages":
        params = {"user": user}
    url = service_api_url.rstrip("/") + path.removeprefix("/v1").format(conversation_id=UNKNOWN_CONVERSATION)
    response = httpx.request(
        method, url, headers=headers, content=content, params=params, timeout=_TIMEOUT_S, verify=tls()
    )
    return Answer(route, response.status_code, response.text)


def documented_routes(console_url: str) -> list[str]:
    """Every operation the console's /openapi.json documents, as `METHOD path`."""
    return [
        f"{method.upper()} {path}"
        for path, operations in served_schema(console_url)["paths"].items()
        for method in operations
        if method in ("get", "post", "put", "patch", "delete")
    ]


def sessionless_request(console_url: str, route: str, ids: dict[str, str]) -> Answer:
    """Send `route` with no session, no key and no body, its path parameters filled from `ids`
    (`{name}` by its name; any other: `unknown`)."""
    method, path = route.split(" ", 1)
    for name in re.findall(r"\{([^}:]+)(?::[^}]*)?\}", path):
        path = re.sub(r"\{" + name + r"(?::[^}]*)?\}", ids.get(name, "unknown"), path)
    response = httpx.request(method, console_url.rstrip("/") + path, timeout=_TIMEOUT_S, verify=tls())
    return Answer(route, response.status_code, response.text)


def _known(route: str, routes: tuple[str, ...]) -> tuple[str, str]:
    if route not in routes:
        raise AssertionError(f"{route!r} is none of these routes: {', '.join(routes)}")
    method, path = route.split(" ", 1)
    return method, path
