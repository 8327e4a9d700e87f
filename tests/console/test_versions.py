"""Version history: notes at publish, reading one version, restoring it into the draft."""

from __future__ import annotations

from typing import Any

from api_shortcuts import assert_error, save_config
from fastapi.testclient import TestClient

AGENTS = "/console/api/agents"


def _publish(client: TestClient, agent_id: str, note: str | None = None) -> dict[str, Any]:
    response = client.post(f"{AGENTS}/{agent_id}/publish", json=None if note is None else {"note": note})
    assert response.status_code == 200, response.text
    return response.json()


def test_versions_list_each_publish_with_its_note(
    client: TestClient, published_agent: dict[str, Any]
) -> None:
    agent_id = published_agent["id"]
    save_config(client, published_agent, instructions="Second version.")
    assert _publish(client, agent_id, "  Shorter answers  ")["note"] == "Shorter answers"
    listing = client.get(f"{AGENTS}/{agent_id}/versions").json()["data"]
    assert [(item["version"], item["note"]) for item in listing] == [(2, "Shorter answers"), (1, "")]
    one = client.get(f"{AGENTS}/{agent_id}/versions/1").json()
    assert one["config"]["instructions"] == "Be helpful." and one["published_at"]
    assert_error(
        client.post(f"{AGENTS}/{agent_id}/publish", json={"note": "x" * 201}), 422, "invalid_request"
    )


def test_restore_copies_a_version_into_the_draft_and_keeps_the_publication(
    client: TestClient, published_agent: dict[str, Any]
) -> None:
    agent_id = published_agent["id"]
    save_config(client, published_agent, instructions="Second version.")
    _publish(client, agent_id, "v2")
    revision = client.get(f"{AGENTS}/{agent_id}").json()["draft"]["revision"]

    response = client.post(f"{AGENTS}/{agent_id}/versions/1/restore", json={"revision": revision})
    assert response.status_code == 200, response.text
    assert response.json()["revision"] == revision + 1

    detail = client.get(f"{AGENTS}/{agent_id}").json()
    assert detail["draft"]["config"]["instructions"] == "Be helpful."
    assert detail["published"]["version"] == 2
    assert detail["published"]["config"]["instructions"] == "Second version."
    assert detail["has_unpublished_changes"] is True


def test_restore_refuses_a_stale_revision_and_an_unknown_version(
    client: TestClient, published_agent: dict[str, Any]
) -> None:
    agent_id = published_agent["id"]
    current = client.get(f"{AGENTS}/{agent_id}").json()["draft"]
    body = assert_error(
        client.post(f"{AGENTS}/{agent_id}/versions/1/restore", json={"revision": current["revision"] - 1}),
        409,
        "revision_conflict",
    )
    assert body["current_revision"] == current["revision"]
    assert client.get(f"{AGENTS}/{agent_id}").json()["draft"] == current  # nothing changed
    restore = {"revision": current["revision"]}
    assert_error(client.post(f"{AGENTS}/{agent_id}/versions/7/restore", json=restore), 404, "not_found")
    assert_error(client.get(f"{AGENTS}/{agent_id}/versions/7"), 404, "not_found")
    assert_error(client.get(f"{AGENTS}/{agent_id}/versions/0"), 422, "invalid_request")
    assert_error(client.get(f"{AGENTS}/nope/versions/1"), 404, "not_found")


def test_restore_leaves_out_datasets_deleted_since(
    client: TestClient, published_agent: dict[str, Any]
) -> None:
    agent_id = published_agent["id"]
    dataset = client.post("/console/api/datasets", json={"name": "Gone soon"}).json()
    save_config(client, published_agent, knowledge={"dataset_ids": [dataset["id"]], "top_k": 3})
    _publish(client, agent_id)
    client.delete(f"/console/api/datasets/{dataset['id']}")
    revision = client.get(f"{AGENTS}/{agent_id}").json()["draft"]["revision"]
    draft = client.post(f"{AGENTS}/{agent_id}/versions/2/restore", json={"revision": revision}).json()
    assert draft["config"]["knowledge"] == {
        "dataset_ids": [],
        "top_k": 3,
        "score_threshold": None,
        "retrieval_mode": "agent_decided",
    }
