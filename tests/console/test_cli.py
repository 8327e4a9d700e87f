"""The real `agent-builder console` process: readiness line, restarts on the same database,
resumed indexing and clean shutdown."""

from __future__ import annotations

import json
import os
import queue
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from api_shortcuts import ADMIN_EMAIL, ADMIN_PASSWORD, CHAT_MODEL, PROVIDER_KEY

from agent_builder.console.db import Database
from agent_builder.console.schemas.knowledge import DatasetCreate
from agent_builder.console.services import knowledge
from tests.fakes.upstream import FakeUpstream

READY = "AGENT_BUILDER_READY "
AGENT_BUILDER = str(Path(sys.executable).with_name("agent-builder"))


class Console:
    def __init__(
        self,
        db: Path,
        *,
        module: bool = False,
        env: dict[str, str] | None = None,
        port: int = 0,
        fd: int | None = None,
    ) -> None:
        command = [sys.executable, "-m", "agent_builder"] if module else [AGENT_BUILDER]
        where = ["--host", "127.0.0.1", "--port", str(port)] if fd is None else ["--fd", str(fd)]
        clean_env = {k: v for k, v in os.environ.items() if not k.startswith("AGENT_BUILDER_")}
        self.process = subprocess.Popen(
            [*command, "console", *where, "--db", str(db)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**clean_env, **(env or {})},
            pass_fds=() if fd is None else (fd,),
        )
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def ready(self, timeout: float = 15.0) -> str:
        """Wait for the readiness line; returns the exact line (without newline)."""
        line = self._lines.get(timeout=timeout)
        assert line is not None, f"console exited early: {self.stop()} {self.stderr()}"
        return line.rstrip("\n")

    def stop(self, signum: int = signal.SIGTERM) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signum)
        return self.process.wait(timeout=15)

    def stderr(self) -> str:
        assert self.process.stderr is not None
        return self.process.stderr.read()

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


@pytest.fixture
def consoles() -> Iterator[list[Console]]:
    started: list[Console] = []
    yield started
    for console in started:
        console.kill()


def _start(consoles: list[Console], db: Path, **kwargs: Any) -> tuple[Console, httpx.Client]:
    console = Console(db, **kwargs)
    consoles.append(console)
    line = console.ready()
    assert line.startswith(READY)
    payload = json.loads(line.removeprefix(READY))
    assert set(payload) == {"service", "url"} and payload["service"] == "console"
    # Signs in with the cookie, as a browser on the console's pages (which names its origin).
    return console, httpx.Client(base_url=payload["url"], headers={"Origin": payload["url"]}, timeout=10)


def _sign_in(http: httpx.Client) -> str:
    response = http.post("/console/api/login", json={"email": ADMIN_EMAIL, "password": ADMIN_PASSWORD})
    assert response.status_code == 200, response.text
    return response.json()["access_token"]


def _wait_completed(http: httpx.Client, dataset_id: str, timeout: float = 10.0) -> list[dict[str, Any]]:
    deadline = time.monotonic() + timeout
    while True:
        documents = http.get(f"/console/api/datasets/{dataset_id}/documents").json()["data"]
        if documents and all(d["indexing_status"] == "completed" for d in documents):
            return documents
        assert time.monotonic() < deadline, documents
        time.sleep(0.05)


def test_ready_line_names_the_real_port_and_sigterm_exits_cleanly(
    consoles: list[Console], tmp_path: Path
) -> None:
    db = tmp_path / "nested" / "dir" / "console.db"  # parent folders are created
    console, http = _start(consoles, db)
    line_url = str(http.base_url).rstrip("/")
    assert line_url.startswith("http://127.0.0.1:") and not line_url.endswith(":0")
    assert http.get("/healthz").json() == {"status": "ok"}
    assert console.stop(signal.SIGTERM) == 0
    assert "Traceback" not in console.stderr()
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_client_on_the_machine_cannot_claim_an_https_it_does_not_have(
    consoles: list[Console], tmp_path: Path
) -> None:
    # Without AGENT_BUILDER_TRUSTED_PROXIES the served process trusts no X-Forwarded-* header, not
    # even from 127.0.0.1 as uvicorn's own default would: a claimed https is not believed, so the
    # session cookie is not made Secure (nor is a claimed address believed, by the same setting).
    _, http = _start(consoles, tmp_path / "console.db")
    claimed = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.7"}
    response = http.post(
        "/console/api/login", json={"email": ADMIN_EMAIL, "password": ADMIN_PASSWORD}, headers=claimed
    )
    assert response.status_code == 200, response.text
    cookie = response.headers["set-cookie"]
    assert cookie.startswith("ab_session=") and "secure" not in cookie.lower(), cookie


def test_python_m_and_sigint(consoles: list[Console], tmp_path: Path) -> None:
    console, http = _start(consoles, tmp_path / "console.db", module=True)
    assert http.get("/healthz").status_code == 200
    assert console.stop(signal.SIGINT) == 0


def test_busy_port_and_bad_settings_fail_with_a_message(consoles: list[Console], tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        console = Console(tmp_path / "console.db", port=busy.getsockname()[1])
        consoles.append(console)
        assert console.process.wait(timeout=15) == 1
        assert "cannot listen" in console.stderr()
    console = Console(tmp_path / "console.db", env={"AGENT_BUILDER_MAX_DOCUMENT_BYTES": "lots"})
    consoles.append(console)
    assert console.process.wait(timeout=15) == 2
    assert "AGENT_BUILDER_MAX_DOCUMENT_BYTES" in console.stderr()


def test_without_a_command_it_exits_2_naming_the_command_as_required() -> None:
    done = subprocess.run([AGENT_BUILDER], check=False, capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    assert "the following arguments are required: COMMAND" in done.stderr


def test_the_console_serves_a_listening_socket_it_inherits(consoles: list[Console], tmp_path: Path) -> None:
    # A supervisor binds first, so others learn the console's URL before it starts (docs/console.md).
    with socket.create_server(("127.0.0.1", 0)) as listening:
        url = f"http://127.0.0.1:{listening.getsockname()[1]}"
        waiting = socket.create_connection(listening.getsockname())  # queued before the console starts
        console, http = _start(consoles, tmp_path / "console.db", fd=listening.fileno())
    with waiting:
        waiting.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        assert waiting.recv(100).startswith(b"HTTP/1.1 200")
    assert str(http.base_url).rstrip("/") == url  # the ready line names the inherited socket
    assert http.get("/healthz").json() == {"status": "ok"}
    assert console.stop(signal.SIGTERM) == 0


def test_an_fd_that_is_not_a_listening_socket_fails_with_a_message(
    consoles: list[Console], tmp_path: Path
) -> None:
    with socket.socket() as unbound, (tmp_path / "file").open("w") as file:
        for fd in (unbound.fileno(), file.fileno()):
            console = Console(tmp_path / "console.db", fd=fd)
            consoles.append(console)
            assert console.process.wait(timeout=15) == 1
            assert f"cannot listen on file descriptor {fd}" in console.stderr()


def test_a_runtime_url_without_the_runtime_token_stops_the_console(
    consoles: list[Console], tmp_path: Path
) -> None:
    console = Console(tmp_path / "console.db", env={"AGENT_BUILDER_RUNTIME_URL": "http://127.0.0.1:5050"})
    consoles.append(console)
    assert console.process.wait(timeout=15) == 2
    stderr = console.stderr()
    assert "AGENT_BUILDER_RUNTIME_URL is set but AGENT_BUILDER_RUNTIME_TOKEN is not" in stderr
    assert "Fix: set AGENT_BUILDER_RUNTIME_TOKEN" in stderr


def _one_of_everything(http: httpx.Client, fake_provider: FakeUpstream) -> tuple[dict[str, Any], ...]:
    """An active model, a tool credential, an indexed dataset, and a published agent on them with an
    API key, a file and its web app off: (agent, dataset, credential, key)."""
    provider = http.post(
        "/console/api/model-providers",
        json={"name": "Fake", "base_url": fake_provider.base_url, "api_key": PROVIDER_KEY},
    ).json()
    model = next(m for m in provider["models"] if m["name"] == CHAT_MODEL)
    http.patch(f"/console/api/model-providers/{provider['id']}/models/{model['id']}", json={"active": True})
    credential = http.post(
        "/console/api/tool-credentials",
        json={"tool": "web_search", "name": "Search", "secret": "tvly-0123456789"},
    ).json()
    dataset = http.post("/console/api/datasets", json={"name": "Facts"}).json()
    http.post(
        f"/console/api/datasets/{dataset['id']}/documents",
        files={"file": ("facts.txt", b"The moon is made of rock.\n\nOwls hunt at night.")},
    )
    _wait_completed(http, dataset["id"])
    agent = http.post("/console/api/agents", json={"name": "Survivor"}).json()
    config = {
        **agent["draft"]["config"],
        "instructions": "Stay alive.",
        "model": {"provider_id": provider["id"], "name": CHAT_MODEL},
        "knowledge": {"dataset_ids": [dataset["id"]], "top_k": 2, "score_threshold": None},
    }
    http.put(f"/console/api/agents/{agent['id']}/draft", json={"revision": 1, "config": config})
    assert http.post(f"/console/api/agents/{agent['id']}/publish").json()["version"] == 1
    http.patch(f"/console/api/agents/{agent['id']}/access", json={"web_app_enabled": False})
    key = http.post(f"/console/api/agents/{agent['id']}/api-keys", json={"name": "ci"}).json()
    http.post(f"/console/api/agents/{agent['id']}/files", files={"file": ("notes.md", b"# Notes")})
    return agent, dataset, credential, key


def test_everything_survives_a_restart(
    consoles: list[Console], tmp_path: Path, fake_provider: FakeUpstream
) -> None:
    db = tmp_path / "console.db"
    console, http = _start(consoles, db)
    token = _sign_in(http)
    agent, dataset, credential, key = _one_of_everything(http, fake_provider)
    before = http.get(f"/console/api/agents/{agent['id']}").json()
    assert console.stop() == 0

    _, http = _start(consoles, db)
    http.headers["Authorization"] = f"Bearer {token}"  # the session survived too
    assert http.get("/console/api/me").json() == {"email": ADMIN_EMAIL}
    after = http.get(f"/console/api/agents/{agent['id']}").json()
    # URLs carry the new port; the site token (the path) must not change.
    assert {**after, "access": None} == {**before, "access": None}
    assert after["access"]["web_app_url"].split("/")[3:] == before["access"]["web_app_url"].split("/")[3:]
    assert after["draft"]["revision"] == 2 and after["published"]["version"] == 1
    assert after["access"]["web_app_enabled"] is False and after["access"]["service_api_enabled"] is True
    assert [m["name"] for m in http.get("/console/api/models", params={"active": "true"}).json()["data"]] == [
        CHAT_MODEL
    ]
    assert http.get("/console/api/tool-credentials").json()["data"] == [credential]
    assert [f["name"] for f in http.get(f"/console/api/agents/{agent['id']}/files").json()["data"]] == [
        "notes.md"
    ]
    records = http.post(f"/console/api/datasets/{dataset['id']}/retrieve", json={"query": "owls"}).json()[
        "records"
    ]
    assert [r["content"] for r in records] == ["Owls hunt at night."]
    info = http.get("/v1/info", headers={"Authorization": f"Bearer {key['secret']}"})
    assert info.json() == {"name": "Survivor", "description": ""}


def test_unfinished_indexing_resumes_at_startup(consoles: list[Console], tmp_path: Path) -> None:
    db_path = tmp_path / "console.db"
    # Documents left behind by a console that stopped before indexing them (one mid-way).
    db = Database(db_path)
    dataset = knowledge.create_dataset(db, DatasetCreate(name="Backlog"))
    waiting = knowledge.add_document(db, dataset.id, "waiting.txt", b"Alpha paragraph.\n\nBeta paragraph.")
    interrupted = knowledge.add_document(db, dataset.id, "interrupted.md", b"Gamma paragraph.")
    with db.write() as conn:
        conn.execute("UPDATE documents SET indexing_status = 'indexing' WHERE id = ?", (interrupted.id,))
    db.close()

    _, http = _start(consoles, db_path)
    _sign_in(http)
    documents = {d["id"]: d for d in _wait_completed(http, dataset.id)}
    assert documents[waiting.id]["segment_count"] == 2
    assert documents[interrupted.id]["segment_count"] == 1
    records = http.post(f"/console/api/datasets/{dataset.id}/retrieve", json={"query": "gamma"}).json()[
        "records"
    ]
    assert [r["document_name"] for r in records] == ["interrupted.md"]
