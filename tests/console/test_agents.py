from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from api_shortcuts import ADMIN_EMAIL, HTTPS_ADMIN_PASSWORD, assert_error, create_agent, save_config
from fastapi.testclient import TestClient

AGENTS = "/console/api/agents"

DEFAULT_CONFIG = {
    "instructions": "",
    "model": None,
    "parameters": {"temperature": 0.7, "max_tokens": 1024},
    "opening_statement": "",
    "suggested_questions": [],
    "tools": [],
    "knowledge": {"dataset_ids": [], "top_k": 3, "score_threshold": None, "retrieval_mode": "agent_decided"},
    "moderation": {
        "keywords": [],
        "inputs": {"enabled": False, "preset_reply": ""},
        "outputs": {"enabled": False, "preset_reply": ""},
    },
    "web_app": {
        "title": "",
        "description": "",
        "icon": "",
        "color": "blue",
        "copyright": "",
        "privacy_policy_url": "",
        "default_language": "en",
    },
    "outputs": [],
    "skills": [],
}


def _model_ref(model: dict[str, Any]) -> dict[str, str]:
    return {"provider_id": model["provider_id"], "name": model["name"]}


def test_new_agent_detail(client: TestClient) -> None:
    agent = create_agent(client, "  Support agent ", description="Helps")
    assert agent["name"] == "Support agent" and agent["description"] == "Helps"
    assert agent["draft"]["revision"] == 1 and agent["draft"]["config"] == DEFAULT_CONFIG
    assert agent["published"] is None and agent["has_unpublished_changes"] is True
    assert agent["access"] == {
        "published": False,
        "unavailable_reason": "Publish the agent to enable access.",
        "web_app_enabled": False,
        "service_api_enabled": False,
        "web_app_url": None,
        "service_api_base_url": None,
        "api_reference_url": "http://testserver/docs/service-api",
    }
    assert client.get(f"{AGENTS}/{agent['id']}").json() == agent


def test_list_search_and_pagination(client: TestClient) -> None:
    for name in ("Alpha", "Beta", "Gamma", "alpine_100%"):
        create_agent(client, name)
    listing = client.get(AGENTS).json()
    assert listing["total"] == 4
    assert [a["name"] for a in listing["data"]] == ["alpine_100%", "Gamma", "Beta", "Alpha"]  # newest first
    assert set(listing["data"][0]) == {"id", "name", "description", "published_version", "updated_at"}
    found = client.get(AGENTS, params={"search": "AL"}).json()
    assert (found["total"], [a["name"] for a in found["data"]]) == (2, ["alpine_100%", "Alpha"])
    assert client.get(AGENTS, params={"search": "%"}).json()["total"] == 1
    page = client.get(AGENTS, params={"limit": 2, "offset": 1}).json()
    assert (page["total"], [a["name"] for a in page["data"]]) == (4, ["Gamma", "Beta"])
    assert client.get(AGENTS, params={"offset": 10}).json() == {"data": [], "total": 4}


def test_bad_pagination_is_422(client: TestClient) -> None:
    for params in ({"limit": 0}, {"limit": 101}, {"offset": -1}, {"limit": "x"}, {"offset": 10**30}):
        body = assert_error(client.get(AGENTS, params=params), 422, "invalid_request")
        assert body["errors"][0]["field"] in params


def test_rename_and_delete(client: TestClient) -> None:
    agent = create_agent(client)
    renamed = client.patch(f"{AGENTS}/{agent['id']}", json={"name": "Renamed"}).json()
    assert renamed["name"] == "Renamed" and renamed["description"] == agent["description"]
    assert renamed["updated_at"] > agent["updated_at"]
    assert_error(client.patch(f"{AGENTS}/{agent['id']}", json={"name": "x" * 81}), 422, "invalid_request")
    assert client.delete(f"{AGENTS}/{agent['id']}").status_code == 204
    assert_error(client.get(f"{AGENTS}/{agent['id']}"), 404, "not_found")
    assert_error(client.delete(f"{AGENTS}/{agent['id']}"), 404, "not_found")
    assert client.get(AGENTS).json()["total"] == 0


def test_create_validation(client: TestClient) -> None:
    for body in (
        {},
        {"name": ""},
        {"name": " "},
        {"name": "x" * 81},
        {"name": 5},
        {"name": "ok", "description": "x" * 1001},
    ):
        assert_error(client.post(AGENTS, json=body), 422, "invalid_request")
    assert client.get(AGENTS).json()["total"] == 0


def test_draft_save_increments_revision_and_detects_conflicts(
    client: TestClient, active_model: dict[str, Any]
) -> None:
    agent = create_agent(client)
    config = {
        **DEFAULT_CONFIG,
        "instructions": "Answer briefly.",
        "model": _model_ref(active_model),
        "parameters": {"temperature": 0.2, "max_tokens": 200},
        "tools": [{"name": "web_search", "enabled": False}, {"name": "json_replace", "enabled": True}],
    }
    response = client.put(f"{AGENTS}/{agent['id']}/draft", json={"revision": 1, "config": config})
    assert response.status_code == 200
    draft = response.json()
    assert draft["revision"] == 2 and draft["config"] == config
    # Someone still holding revision 1 must not overwrite revision 2.
    stale = client.put(f"{AGENTS}/{agent['id']}/draft", json={"revision": 1, "config": DEFAULT_CONFIG})
    body = assert_error(stale, 409, "revision_conflict")
    assert body["current_revision"] == 2
    detail = client.get(f"{AGENTS}/{agent['id']}").json()
    assert detail["draft"] == draft


def test_partial_config_gets_defaults(client: TestClient) -> None:
    agent = create_agent(client)
    response = client.put(
        f"{AGENTS}/{agent['id']}/draft", json={"revision": 1, "config": {"instructions": "Hi"}}
    )
    assert response.json()["config"] == {**DEFAULT_CONFIG, "instructions": "Hi"}


INVALID_CONFIGS = [
    ({"instructions": "x" * 10001}, "config.instructions"),
    ({"parameters": {"temperature": 2.5}}, "config.parameters.temperature"),
    ({"parameters": {"temperature": -0.1}}, "config.parameters.temperature"),
    ({"parameters": {"max_tokens": 0}}, "config.parameters.max_tokens"),
    ({"parameters": {"max_tokens": 32001}}, "config.parameters.max_tokens"),
    ({"opening_statement": "x" * 1001}, "config.opening_statement"),
    ({"suggested_questions": ["q"] * 6}, "config.suggested_questions"),
    ({"suggested_questions": [""]}, "config.suggested_questions.0"),
    ({"suggested_questions": ["x" * 201]}, "config.suggested_questions.0"),
    ({"tools": [{"name": "rm_rf"}]}, "config.tools.0.name"),
    ({"tools": [{"name": "web_search"}, {"name": "web_search"}]}, "config"),
    ({"knowledge": {"top_k": 11}}, "config.knowledge.top_k"),
    ({"knowledge": {"score_threshold": 1.1}}, "config.knowledge.score_threshold"),
    ({"knowledge": {"dataset_ids": ["a", "a"]}}, "config.knowledge"),
    ({"model": {"provider_id": "p"}}, "config.model.name"),
    ({"unknown": True}, "config.unknown"),
]


def test_draft_shape_and_bounds_are_validated(client: TestClient) -> None:
    agent = create_agent(client)
    for config, field in INVALID_CONFIGS:
        response = client.put(f"{AGENTS}/{agent['id']}/draft", json={"revision": 1, "config": config})
        body = assert_error(response, 422, "invalid_request")
        assert body["errors"][0]["field"] == field, (config, body)
        assert body["message"].startswith(field)
    # Nothing was saved.
    assert client.get(f"{AGENTS}/{agent['id']}").json()["draft"]["revision"] == 1


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity"])
@pytest.mark.parametrize("field", ["parameters.temperature", "knowledge.score_threshold"])
def test_a_number_that_is_not_finite_is_refused_not_stored(
    client: TestClient, number: str, field: str
) -> None:
    # Python's JSON parser reads NaN and Infinity; a draft holding one could not be sent back as JSON.
    agent = create_agent(client)
    section, name = field.split(".")
    body = f'{{"revision": 1, "config": {{"{section}": {{"{name}": {number}}}}}}}'
    response = client.put(
        f"{AGENTS}/{agent['id']}/draft", content=body, headers={"Content-Type": "application/json"}
    )
    error = assert_error(response, 422, "invalid_request")
    assert error["message"] == f"config.{field}: Input should be a finite number", error
    assert client.get(f"{AGENTS}/{agent['id']}").json()["draft"]["revision"] == 1


def test_draft_of_unknown_agent_is_404(client: TestClient) -> None:
    assert_error(client.put(f"{AGENTS}/nope/draft", json={"revision": 1, "config": {}}), 404, "not_found")


def test_publish_refuses_an_invalid_draft_with_reasons(client: TestClient) -> None:
    agent = create_agent(client)
    body = assert_error(client.post(f"{AGENTS}/{agent['id']}/publish"), 409, "draft_invalid")
    assert body["reasons"] == ["No model selected.", "Instructions are empty."]

    save_config(
        client,
        agent,
        instructions="  ",
        model={"provider_id": "gone", "name": "ghost"},
        knowledge={"dataset_ids": ["deleted-dataset"]},
    )
    body = assert_error(client.post(f"{AGENTS}/{agent['id']}/publish"), 409, "draft_invalid")
    assert body["reasons"] == [
        "Model 'ghost' was not found or is inactive.",
        "Instructions are empty.",
        "Knowledge dataset deleted-dataset no longer exists.",
    ]
    assert client.get(f"{AGENTS}/{agent['id']}/versions").json()["data"] == []


def test_inactive_model_cannot_be_published(client: TestClient, active_model: dict[str, Any]) -> None:
    agent = create_agent(client)
    save_config(client, agent, instructions="Hi", model=_model_ref(active_model))
    client.patch(
        f"/console/api/model-providers/{active_model['provider_id']}/models/{active_model['id']}",
        json={"active": False},
    )
    body = assert_error(client.post(f"{AGENTS}/{agent['id']}/publish"), 409, "draft_invalid")
    assert body["reasons"] == [f"Model '{active_model['name']}' was not found or is inactive."]


def test_publish_snapshots_versions_and_tracks_unpublished_changes(
    client: TestClient, active_model: dict[str, Any]
) -> None:
    agent = create_agent(client)
    first = save_config(client, agent, instructions="Version one", model=_model_ref(active_model))
    response = client.post(f"{AGENTS}/{agent['id']}/publish")
    assert response.status_code == 200
    assert response.json()["version"] == 1 and response.json()["published_at"]

    detail = client.get(f"{AGENTS}/{agent['id']}").json()
    assert detail["published"]["version"] == 1 and detail["published"]["config"] == first["config"]
    assert detail["has_unpublished_changes"] is False

    second = save_config(client, agent, instructions="Version two")
    detail = client.get(f"{AGENTS}/{agent['id']}").json()
    assert detail["has_unpublished_changes"] is True
    assert detail["published"]["config"]["instructions"] == "Version one"  # the draft does not leak

    assert client.post(f"{AGENTS}/{agent['id']}/publish").json()["version"] == 2
    versions = client.get(f"{AGENTS}/{agent['id']}/versions").json()["data"]
    assert [(v["version"], v["config"]["instructions"]) for v in versions] == [
        (2, "Version two"),
        (1, "Version one"),
    ]
    assert versions[0]["config"] == second["config"]
    summary = client.get(AGENTS).json()["data"][0]
    assert summary["published_version"] == 2


def test_switches_turn_on_at_first_publish_and_republish_keeps_them(
    client: TestClient, published_agent: dict[str, Any]
) -> None:
    agent_id = published_agent["id"]
    access = published_agent["access"]
    assert access["published"] is True and access["unavailable_reason"] is None
    assert access["web_app_enabled"] is True and access["service_api_enabled"] is True
    token_url = access["web_app_url"]
    assert token_url.startswith("http://testserver/chat/") and len(token_url.rsplit("/", 1)[1]) >= 16
    assert access["service_api_base_url"] == "http://testserver/v1"

    response = client.patch(f"{AGENTS}/{agent_id}/access", json={"web_app_enabled": False})
    assert response.status_code == 200
    assert response.json() == {**access, "web_app_enabled": False}
    client.post(f"{AGENTS}/{agent_id}/publish")
    assert client.get(f"{AGENTS}/{agent_id}").json()["access"] == {**access, "web_app_enabled": False}
    both_off = client.patch(f"{AGENTS}/{agent_id}/access", json={"service_api_enabled": False}).json()
    assert (both_off["web_app_enabled"], both_off["service_api_enabled"]) == (False, False)


def test_access_cannot_change_before_the_first_publish(client: TestClient) -> None:
    agent = create_agent(client)
    assert_error(
        client.patch(f"{AGENTS}/{agent['id']}/access", json={"web_app_enabled": True}),
        409,
        "agent_not_published",
    )
    assert_error(client.patch(f"{AGENTS}/nope/access", json={}), 404, "not_found")
    assert_error(
        client.patch(f"{AGENTS}/{agent['id']}/access", json={"web_app_enabled": "maybe"}),
        422,
        "invalid_request",
    )


def test_public_url_setting_drives_access_urls(make_client: Any, published_agent: dict[str, Any]) -> None:
    # Same database, other origin (and, over https, a password other than the default).
    behind_proxy = make_client(public_url="https://agents.example.com", admin_password=HTTPS_ADMIN_PASSWORD)
    # Its session cookie is Secure (an https public URL) and TestClient talks http: use the token.
    login = {"email": ADMIN_EMAIL, "password": HTTPS_ADMIN_PASSWORD}
    token = behind_proxy.post("/console/api/login", json=login).json()["access_token"]
    headers = {"Authorization": f"Bearer {token}"}
    access = behind_proxy.get(f"{AGENTS}/{published_agent['id']}", headers=headers).json()["access"]
    site_token = published_agent["access"]["web_app_url"].rsplit("/", 1)[1]
    assert access["web_app_url"] == f"https://agents.example.com/chat/{site_token}"
    assert access["service_api_base_url"] == "https://agents.example.com/v1"
    assert access["api_reference_url"] == "https://agents.example.com/docs/service-api"


def test_delete_agent_removes_children(client: TestClient, published_agent: dict[str, Any]) -> None:
    agent_id = published_agent["id"]
    key = client.post(f"{AGENTS}/{agent_id}/api-keys", json={}).json()
    client.post(f"{AGENTS}/{agent_id}/files", files={"file": ("a.txt", b"hello")})
    assert client.delete(f"{AGENTS}/{agent_id}").status_code == 204
    assert_error(client.get(f"{AGENTS}/{agent_id}/versions"), 404, "not_found")
    assert_error(client.get(f"{AGENTS}/{agent_id}/files"), 404, "not_found")
    assert_error(
        client.get("/v1/info", headers={"Authorization": f"Bearer {key['secret']}"}), 401, "invalid_api_key"
    )
    db = client.app.state.db
    with db.read() as conn:
        for table in ("agent_versions", "api_keys", "agent_files"):
            assert conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] == 0


def test_concurrent_saves_of_one_revision_let_exactly_one_win(client: TestClient) -> None:
    agent = create_agent(client)

    def save(index: int) -> int:
        body = {"revision": 1, "config": {**DEFAULT_CONFIG, "instructions": f"writer {index}"}}
        return client.put(f"{AGENTS}/{agent['id']}/draft", json=body).status_code

    with ThreadPoolExecutor(max_workers=8) as pool:
        statuses = sorted(pool.map(save, range(8)))
    assert statuses == [200] + [409] * 7
    draft = client.get(f"{AGENTS}/{agent['id']}").json()["draft"]
    assert draft["revision"] == 2 and draft["config"]["instructions"].startswith("writer ")
