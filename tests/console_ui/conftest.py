"""Fixtures for the console UI tests: a real console process (port 0, temp database), a fake
OpenAI-compatible model provider, an API client for setup, and signed-in Chromium pages."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page

from tests.console_ui.page_errors import watch_errors

ADMIN_EMAIL = "ui-tests@example.com"
ADMIN_PASSWORD = "ui-tests-password"
READY_PREFIX = "AGENT_BUILDER_READY "
FAKE_MODEL = "fake-chat"


def _drain(stream, lines: queue.Queue[str]) -> None:
    # Keep reading for the whole session so a chatty server never blocks on a full pipe.
    for line in stream:
        lines.put(line)


@pytest.fixture(scope="session")
def console_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    workdir = tmp_path_factory.mktemp("console")
    env = {
        **os.environ,
        "AGENT_BUILDER_ADMIN_EMAIL": ADMIN_EMAIL,
        "AGENT_BUILDER_ADMIN_PASSWORD": ADMIN_PASSWORD,
    }
    for name in ("AGENT_BUILDER_PUBLIC_URL", "AGENT_BUILDER_RUNTIME_URL", "AGENT_BUILDER_ENABLE_TEST_SEED"):
        env.pop(name, None)
    command = [
        str(Path(sys.executable).parent / "agent-builder"),
        "console",
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        "--db",
        str(workdir / "console.db"),
    ]
    with open(workdir / "stderr.log", "w") as stderr:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=stderr, text=True, env=env)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=_drain, args=(process.stdout, lines), daemon=True).start()
    try:
        while True:
            try:
                line = lines.get(timeout=30)
            except queue.Empty:
                pytest.fail(f"console did not become ready; see {workdir / 'stderr.log'}")
            if line.startswith(READY_PREFIX):
                yield json.loads(line[len(READY_PREFIX) :])["url"]
                break
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture(scope="session")
def api(console_url: str) -> Iterator[httpx.Client]:
    """Setup client, signed in with a bearer token like the suite's API setup."""
    with httpx.Client(base_url=console_url, timeout=15) as client:
        response = client.post("/console/api/login", json={"email": ADMIN_EMAIL, "password": ADMIN_PASSWORD})
        response.raise_for_status()
        client.headers["Authorization"] = f"Bearer {response.json()['access_token']}"
        client.cookies.clear()
        yield client


class _FakeProvider(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = json.dumps({"object": "list", "data": [{"id": FAKE_MODEL, "object": "model"}]}).encode()
        self.send_response(200 if self.path == "/models" else 404)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="session")
def active_model(api: httpx.Client) -> Iterator[dict]:
    """An active chat model from a local fake OpenAI-compatible provider: `{provider_id, name}`."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _FakeProvider)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        provider = (
            api.post(
                "/console/api/model-providers",
                json={
                    "name": f"UI fake {uuid.uuid4().hex[:6]}",
                    "base_url": f"http://127.0.0.1:{server.server_port}",
                    "api_key": "sk-ui-tests",
                },
            )
            .raise_for_status()
            .json()
        )
        assert provider["status"] == "active", provider
        model = next(model for model in provider["models"] if model["name"] == FAKE_MODEL)
        api.patch(
            f"/console/api/model-providers/{provider['id']}/models/{model['id']}", json={"active": True}
        ).raise_for_status()
        yield {"provider_id": provider["id"], "name": FAKE_MODEL}
    finally:
        server.shutdown()


@pytest.fixture
def agent(api: httpx.Client) -> Iterator[dict]:
    created = api.post("/console/api/agents", json={"name": f"UI test {uuid.uuid4().hex[:8]}"})
    created.raise_for_status()
    yield created.json()
    api.delete(f"/console/api/agents/{created.json()['id']}")


@pytest.fixture
def page(browser: Browser, console_url: str) -> Iterator[Page]:
    """A signed-in page. Fails the test on uncaught script errors or console errors; failed
    HTTP responses the test provokes on purpose (409, 403) are not script errors."""
    context = browser.new_context(base_url=console_url, viewport={"width": 1280, "height": 800})
    context.request.post("/console/api/login", data={"email": ADMIN_EMAIL, "password": ADMIN_PASSWORD})
    page = context.new_page()
    errors = watch_errors(page)
    yield page
    context.close()
    assert not errors, errors
