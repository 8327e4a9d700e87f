"""Shortcuts over the console API for the in-process backend tests (TestClient): the admin's
credentials, sign in, create an agent, save its draft, upload, wait for indexing, assert an error.
Fixtures live in conftest.py."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

ADMIN_EMAIL = "admin@example.com"
ADMIN_PASSWORD = "admin-password"
# A console whose public URL is https refuses the default password: its tests use this one.
HTTPS_ADMIN_PASSWORD = "https-admin-password-0123456789"
PROVIDER_KEY = "sk-test-0123456789abcdef"
CHAT_MODEL = "gpt-4o-mini"
# What a browser sends from the console's own pages (TestClient's origin is http://testserver).
BROWSER_HEADERS = {"Origin": "http://testserver"}


def sign_in(client: TestClient) -> None:
    response = client.post("/console/api/login", json={"email": ADMIN_EMAIL, "password": ADMIN_PASSWORD})
    assert response.status_code == 200, response.text


def create_agent(client: TestClient, name: str = "Support agent", **fields: Any) -> dict[str, Any]:
    response = client.post("/console/api/agents", json={"name": name, **fields})
    assert response.status_code == 201, response.text
    return response.json()


def save_config(client: TestClient, agent: dict[str, Any], **config: Any) -> dict[str, Any]:
    """Merge `config` into the agent's current draft and save it; returns the Draft."""
    detail = client.get(f"/console/api/agents/{agent['id']}").json()
    body = {"revision": detail["draft"]["revision"], "config": {**detail["draft"]["config"], **config}}
    response = client.put(f"/console/api/agents/{agent['id']}/draft", json=body)
    assert response.status_code == 200, response.text
    return response.json()


def assert_error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["code"] == code, body
    assert isinstance(body["message"], str) and body["message"]
    return body


def wait_for_indexing(
    client: TestClient, dataset_id: str, document_id: str, timeout: float = 5.0
) -> dict[str, Any]:
    """Poll the document until indexing finished (completed or error); returns the Document."""
    deadline = time.monotonic() + timeout
    while True:
        document = client.get(f"/console/api/datasets/{dataset_id}/documents/{document_id}").json()
        if document["indexing_status"] in ("completed", "error"):
            return document
        assert time.monotonic() < deadline, f"indexing did not finish: {document}"
        time.sleep(0.02)


def upload(client: TestClient, path: str, name: str, content: bytes) -> Any:
    return client.post(path, files={"file": (name, content, "application/octet-stream")})
