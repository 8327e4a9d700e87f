"""Fixtures for the console backend tests: an app on a temp database (in-process TestClient), the
fake upstream as its model provider, and shortcuts for the usual setup."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from api_shortcuts import BROWSER_HEADERS, CHAT_MODEL, PROVIDER_KEY, create_agent, save_config, sign_in
from fastapi.testclient import TestClient

from agent_builder.console import auth
from agent_builder.console.app import create_app
from agent_builder.console.config import ConsoleConfig
from tests.fakes.upstream import FakeUpstream


@pytest.fixture(autouse=True)
def _cheap_password_hashing(monkeypatch: pytest.MonkeyPatch) -> None:
    # Full-cost scrypt would dominate the in-process tests; the subprocess tests keep it.
    monkeypatch.setattr(auth, "SCRYPT_COST", (2**4, 8, 1))


@pytest.fixture
def fake_provider(fake_upstream: FakeUpstream) -> FakeUpstream:
    """The fake upstream as these tests' provider: it wants PROVIDER_KEY, lists two chat models
    and an embedding model (which the console must leave out)."""
    fake_upstream.api_key = PROVIDER_KEY
    fake_upstream.models = [CHAT_MODEL, "gpt-4.1", "text-embedding-3-small"]
    return fake_upstream


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
def active_model(client: TestClient, fake_provider: FakeUpstream) -> dict[str, Any]:
    """A validated provider with CHAT_MODEL activated; returns the Model."""
    provider = client.post(
        "/console/api/model-providers",
        json={"name": "Fake", "base_url": fake_provider.base_url, "api_key": PROVIDER_KEY},
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
