"""Duplicating an agent: configuration, files and variables come along; publication, access,
keys and conversations do not."""

from __future__ import annotations

from typing import Any

from api_shortcuts import assert_error, create_agent
from fastapi.testclient import TestClient

AGENTS = "/console/api/agents"


def test_the_copy_has_the_draft_files_and_variables_but_no_publication(
    client: TestClient, published_agent: dict[str, Any]
) -> None:
    agent_id = published_agent["id"]
    client.post(f"{AGENTS}/{agent_id}/files", files={"file": ("notes.txt", b"hello", "text/plain")})
    client.post(f"{AGENTS}/{agent_id}/env-vars", json={"name": "REGION", "value": "eu"})
    client.post(
        f"{AGENTS}/{agent_id}/env-vars", json={"name": "TOKEN", "value": "s3cr3t-value", "secret": True}
    )
    client.post(f"{AGENTS}/{agent_id}/api-keys", json={"name": "k"})
    draft = client.get(f"{AGENTS}/{agent_id}").json()["draft"]

    response = client.post(f"{AGENTS}/{agent_id}/duplicate")
    assert response.status_code == 201, response.text
    copy = response.json()
    assert copy["id"] != agent_id
    assert (copy["name"], copy["description"]) == ("Published agent (copy)", "Answers questions")
    assert copy["draft"]["config"] == draft["config"] and copy["draft"]["revision"] == 1
    assert copy["published"] is None and copy["access"]["published"] is False
    assert copy["access"]["web_app_enabled"] is False and copy["access"]["service_api_enabled"] is False
    assert client.get(f"{AGENTS}/{copy['id']}/api-keys").json()["data"] == []
    assert client.get(f"{AGENTS}/{copy['id']}/versions").json()["data"] == []
    files = client.get(f"{AGENTS}/{copy['id']}/files").json()["data"]
    assert [(f["name"], f["size"]) for f in files] == [("notes.txt", 5)]
    variables = client.get(f"{AGENTS}/{copy['id']}/env-vars").json()["data"]
    assert [(v["name"], v["value"], v["secret"]) for v in variables] == [
        ("REGION", "eu", False),
        ("TOKEN", None, True),
    ]
    # The original keeps everything.
    assert client.get(f"{AGENTS}/{agent_id}").json()["published"]["version"] == 1
    assert len(client.get(f"{AGENTS}/{agent_id}/files").json()["data"]) == 1


def test_the_copy_takes_the_given_name_and_keeps_the_name_limit(client: TestClient) -> None:
    agent = create_agent(client, "A" * 80)
    copy = client.post(f"{AGENTS}/{agent['id']}/duplicate").json()
    assert copy["name"] == "A" * 73 + " (copy)"
    named = client.post(f"{AGENTS}/{agent['id']}/duplicate", json={"name": "  Second  ", "description": ""})
    assert (named.json()["name"], named.json()["description"]) == ("Second", "")
    assert_error(client.post(f"{AGENTS}/{agent['id']}/duplicate", json={"name": " "}), 422, "invalid_request")
    assert_error(client.post(f"{AGENTS}/nope/duplicate"), 404, "not_found")
