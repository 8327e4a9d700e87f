"""Fixtures for the console backend tests: an app on a temp database (in-process TestClient), a
scripted OpenAI-compatible provider on 127.0.0.1, and shortcuts for the usual setup."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from console_testing import (
    BROWSER_HEADERS,
    CHAT_MODEL,
    PROVIDER_KEY,
    FakeProvider,
    create_agent,
    save_config,
    sign_in,
)
from fastapi.testclient import TestClient

from agent_builder.console import auth
from agent_builder.console.app import create_app
from agent_builder.console.config import ConsoleConfig


@pytest.fixture(autouse=True)
def _cheap_password_hashing(monkeypatch: pytest.MonkeyPatch) -> None:
    # Full-cost scrypt would dominate the in-process tests; the subprocess tests keep it.
    monkeypatch.setattr(auth, "SCRYPT_COST", (2**4, 8, 1))


@pytest.fixture(scope="session")
def _provider_server() -> Iterator[tuple[ThreadingHTTPServer, list[FakeProvider]]]:
    current: list[FakeProvider] = [FakeProvider()]

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            script = current[0]
            script.seen_auth.append(self.headers.get("Authorization", ""))
            if script.delay:
                time.sleep(script.delay)
            if self.path != "/v1/models":
                status, body = 404, b'{"error": {"message": "no such route"}}'
            elif self.headers.get("Authorization") != f"Bearer {script.api_key}":
                status, body = 401, b'{"error": {"message": "Incorrect API key provided"}}'
            else:
                status = 200
                body = json.dumps(
                    {"object": "list", "data": [{"id": m, "object": "model"} for m in script.models]}
                )
                body = body.encode()
            status, body = script.status or status, script.body if script.body is not None else body
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server, current
    server.shutdown()
    server.server_close()


@pytest.fixture
def fake_provider(_provider_server: tuple[ThreadingHTTPServer, list[FakeProvider]]) -> FakeProvider:
    server, current = _provider_server
    current[0] = FakeProvider(url=f"http://127.0.0.1:{server.server_address[1]}/v1")
    return current[0]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "console.db"


@pytest.fixture
def make_client(db_path: Path) -> Iterator[Callable[..., TestClient]]:
    """Start an app (lifespan included) on the test's database; closed at teardown."""
    with ExitStack() as stack:

        def make(**overrides: Any) -> TestClient:
            app = create_app(ConsoleConfig(db_path=db_path, **overrides))
            # As a browser on the console's own pages: its POSTs say where they come from.
            return stack.enter_context(TestClient(app, headers=BROWSER_HEADERS))

        yield make


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    """Signed in with the session cookie."""
    client = make_client()
    sign_in(client)
    return client


@pytest.fixture
def anon(client: TestClient) -> TestClient:
    """The same app as `client`, without a session (no lifespan of its own)."""
    return TestClient(client.app, headers=BROWSER_HEADERS)


@pytest.fixture
def active_model(client: TestClient, fake_provider: FakeProvider) -> dict[str, Any]:
    """A validated provider with CHAT_MODEL activated; returns the Model."""
    provider = client.post(
        "/console/api/model-providers",
        json={"name": "Fake", "base_url": fake_provider.url, "api_key": PROVIDER_KEY},
    ).json()
    model = next(m for m in provider["models"] if m["name"] == CHAT_MODEL)
    response = client.patch(
        f"/console/api/model-providers/{provider['id']}/models/{model['id']}", json={"active": True}
    )
    assert response.status_code == 200, response.text
    return response.json()


@pytest.fixture
def published_agent(client: TestClient, active_model: dict[str, Any]) -> dict[str, Any]:
    """A published agent (v1) with an opening statement and suggested questions; returns AgentDetail."""
    agent = create_agent(client, "Published agent", description="Answers questions")
    save_config(
        client,
        agent,
        instructions="Be helpful.",
        model={"provider_id": active_model["provider_id"], "name": active_model["name"]},
        opening_statement="Hello there!",
        suggested_questions=["What can you do?", "Who are you?"],
    )
    response = client.post(f"/console/api/agents/{agent['id']}/publish")
    assert response.status_code == 200, response.text
    return client.get(f"/console/api/agents/{agent['id']}").json()
