"""Deleting an agent deletes its sandbox workspaces: the console asks shellctl (with the shared
token) before it deletes the agent, and keeps the agent when shellctl cannot."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from api_shortcuts import create_agent, sign_in
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient

from agent_builder.console.config import ConsoleConfig
from support.replay.server import BackgroundServer

TOKEN = "console-tests-shellctl-token"


class FakeShellctl:
    """Records the owner deletions it gets; answers `status`."""

    def __init__(self) -> None:
        self.deleted: list[tuple[str, str | None]] = []  # (owner, Authorization header)
        self.status = 200

    def reset(self) -> None:
        self.deleted.clear()
        self.status = 200

    def app(self) -> FastAPI:
        app = FastAPI()

        @app.delete("/owners/{owner}")
        async def delete_owner(owner: str, request: Request) -> JSONResponse:
            self.deleted.append((owner, request.headers.get("authorization")))
            return JSONResponse({"owner": owner, "removed": 1}, status_code=self.status)

        return app


@pytest.fixture(scope="module")
def _shellctl_server() -> Iterator[tuple[FakeShellctl, str]]:
    fake = FakeShellctl()
    with BackgroundServer(fake.app()) as server:
        yield fake, server.url


@pytest.fixture
def shellctl(_shellctl_server: tuple[FakeShellctl, str]) -> FakeShellctl:
    _shellctl_server[0].reset()
    return _shellctl_server[0]


def _console(make_client: Callable[..., TestClient], shellctl_url: str) -> TestClient:
    client = make_client(shellctl_url=shellctl_url, shellctl_token=TOKEN)
    sign_in(client)
    return client


def test_deleting_an_agent_asks_shellctl_to_remove_its_workspaces(
    make_client: Callable[..., TestClient], shellctl: FakeShellctl, _shellctl_server: tuple[FakeShellctl, str]
) -> None:
    client = _console(make_client, _shellctl_server[1])
    agent = create_agent(client)
    assert client.delete(f"/console/api/agents/{agent['id']}").status_code == 204
    assert shellctl.deleted == [(agent["id"], f"Bearer {TOKEN}")]
    assert client.get(f"/console/api/agents/{agent['id']}").status_code == 404


@pytest.mark.parametrize("failure", ["status", "unreachable"])
def test_the_agent_is_kept_when_shellctl_cannot_remove_its_workspaces(
    make_client: Callable[..., TestClient],
    shellctl: FakeShellctl,
    _shellctl_server: tuple[FakeShellctl, str],
    failure: str,
) -> None:
    shellctl.status = 500
    url = _shellctl_server[1] if failure == "status" else "http://127.0.0.1:9"  # discard port: refused
    client = _console(make_client, url)
    agent = create_agent(client)
    response = client.delete(f"/console/api/agents/{agent['id']}")
    assert response.status_code == 503, response.text
    assert response.json()["code"] == "sandbox_unavailable"
    assert TOKEN not in response.text
    assert client.get(f"/console/api/agents/{agent['id']}").status_code == 200


def test_an_unknown_agent_is_404_without_a_workspace_left_anywhere(
    make_client: Callable[..., TestClient], shellctl: FakeShellctl, _shellctl_server: tuple[FakeShellctl, str]
) -> None:
    client = _console(make_client, _shellctl_server[1])
    assert client.delete("/console/api/agents/no.such.agent").status_code == 404
    assert shellctl.deleted == []  # not an id shellctl could hold workspaces for


def test_the_token_comes_from_the_environment_and_stays_out_of_reprs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AGENT_BUILDER_SHELLCTL_TOKEN", TOKEN)
    config = ConsoleConfig.load(db_path=tmp_path / "c.db")
    assert config.shellctl_token == TOKEN
    assert TOKEN not in repr(config)
