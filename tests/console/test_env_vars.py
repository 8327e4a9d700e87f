"""Environment variables: the API's rules, write-only secrets, and `.env` import."""

from __future__ import annotations

from typing import Any

from api_shortcuts import assert_error, create_agent
from fastapi.testclient import TestClient

from agent_builder.console.crypto import seal

AGENTS = "/console/api/agents"


def _vars(client: TestClient, agent_id: str) -> list[dict[str, Any]]:
    return client.get(f"{AGENTS}/{agent_id}/env-vars").json()["data"]


def test_add_edit_and_delete(client: TestClient) -> None:
    agent = create_agent(client)
    base = f"{AGENTS}/{agent['id']}/env-vars"
    created = client.post(base, json={"name": "API_BASE", "value": "https://example.test"})
    assert created.status_code == 201, created.text
    assert created.json() | {"updated_at": None} == {
        "name": "API_BASE",
        "secret": False,
        "value": "https://example.test",
        "masked": None,
        "updated_at": None,
    }
    assert_error(client.post(base, json={"name": "API_BASE", "value": "again"}), 409, "env_var_exists")
    assert (
        client.patch(f"{base}/API_BASE", json={"value": "https://other.test"}).json()["value"]
        == "https://other.test"
    )
    assert client.delete(f"{base}/API_BASE").status_code == 204
    assert _vars(client, agent["id"]) == []
    assert_error(client.delete(f"{base}/API_BASE"), 404, "not_found")
    assert_error(client.patch(f"{base}/MISSING", json={"value": "x"}), 404, "not_found")


def test_the_import_route_is_not_a_variable_called_import(client: TestClient) -> None:
    base = f"{AGENTS}/{create_agent(client)['id']}/env-vars"
    for method in ("OPTIONS", "PATCH", "DELETE"):
        refused = client.request(method, f"{base}/import")
        assert refused.status_code == 405 and refused.headers["allow"] == "POST", (method, refused.text)
    assert_error(client.patch(f"{base}/lower_case", json={"value": "x"}), 404, "not_found")


def test_names_and_values_are_validated_with_the_rule_explained(client: TestClient) -> None:
    agent = create_agent(client)
    base = f"{AGENTS}/{agent['id']}/env-vars"
    for name in ("lower", "1ST", "WITH-DASH", "", "A" * 65, "HOME"):
        body = assert_error(client.post(base, json={"name": name, "value": "x"}), 422, "invalid_request")
        assert body["errors"][0]["field"] == "name", body
    assert "capital letters" in client.post(base, json={"name": "bad", "value": "x"}).json()["message"]
    assert_error(client.post(base, json={"name": "LONG", "value": "x" * 4001}), 422, "invalid_request")
    assert_error(client.post(f"{AGENTS}/nope/env-vars", json={"name": "A", "value": "x"}), 404, "not_found")


def test_a_secret_is_write_only(client: TestClient) -> None:
    agent = create_agent(client)
    base = f"{AGENTS}/{agent['id']}/env-vars"
    created = client.post(base, json={"name": "TOKEN", "value": "tok-1234567890", "secret": True}).json()
    assert (created["value"], created["masked"]) == (None, "…90")
    assert "tok-1234567890" not in client.get(base).text
    assert "tok-1234567890" not in client.get(f"{AGENTS}/{agent['id']}").text
    # Replacing the value keeps it secret; making it plain needs a new value.
    assert client.patch(f"{base}/TOKEN", json={"value": "tok-abcdefghijk"}).json()["masked"] == "…jk"
    assert_error(client.patch(f"{base}/TOKEN", json={"secret": False}), 422, "value_required")
    plain = client.patch(f"{base}/TOKEN", json={"secret": False, "value": "visible"}).json()
    assert (plain["secret"], plain["value"]) == (False, "visible")


def _import(client: TestClient, agent_id: str, content: bytes) -> Any:
    return client.post(
        f"{AGENTS}/{agent_id}/env-vars/import", files={"file": (".env", content, "text/plain")}
    )


def test_import_adds_updates_and_reports_skipped_lines(client: TestClient) -> None:
    agent = create_agent(client)
    base = f"{AGENTS}/{agent['id']}/env-vars"
    client.post(base, json={"name": "KEEP_SECRET", "value": "old-secret-value", "secret": True})
    client.post(base, json={"name": "REGION", "value": "us"})
    response = _import(
        client,
        agent["id"],
        b"# settings\nREGION=eu\nexport NEW_ONE='x y'\nbad name=1\nNEW_ONE=z\nKEEP_SECRET=new-secret-value\n",
    )
    assert response.status_code == 200, response.text
    result = response.json()
    assert result["added"] == ["NEW_ONE"] and sorted(result["updated"]) == ["KEEP_SECRET", "REGION"]
    assert [item["line"] for item in result["skipped"]] == [4]
    assert result["duplicates"] == [{"name": "NEW_ONE", "lines": [3, 5]}]
    by_name = {item["name"]: item for item in _vars(client, agent["id"])}
    assert by_name["REGION"]["value"] == "eu" and by_name["NEW_ONE"]["value"] == "z"
    assert by_name["KEEP_SECRET"]["secret"] is True and by_name["KEEP_SECRET"]["masked"] == "…alue"


def test_a_file_that_is_not_text_saves_nothing(client: TestClient) -> None:
    agent = create_agent(client)
    for content in (b"GOOD=1\n\xff\xfe\x00binary", b"GOOD=1\nNUL=\x00\n"):
        assert_error(_import(client, agent["id"], content), 415, "not_text")
    assert _vars(client, agent["id"]) == []
    assert _import(client, agent["id"], "\ufeffBOM=ok\n".encode()).json()["added"] == ["BOM"]


def _save_instructions(client: TestClient, agent_id: str, instructions: str) -> Any:
    draft = client.get(f"{AGENTS}/{agent_id}").json()["draft"]
    config = {**draft["config"], "instructions": instructions}
    return client.put(f"{AGENTS}/{agent_id}/draft", json={"revision": draft["revision"], "config": config})


def test_instructions_never_use_a_secret_variable(client: TestClient) -> None:
    """The instructions go to the model, which repeats them to whoever asks: a secret referenced
    there is refused with a 422 naming it, however it would get in (issue 25)."""
    agent = create_agent(client)
    base = f"{AGENTS}/{agent['id']}/env-vars"
    client.post(base, json={"name": "API_TOKEN", "value": "tok-1234567890", "secret": True})
    client.post(base, json={"name": "REGION", "value": "eu-west"})

    refused = assert_error(
        _save_instructions(client, agent["id"], "Region {{env.REGION}}, key {{ env.API_TOKEN }}."),
        422,
        "secret_in_instructions",
    )
    assert "{{env.API_TOKEN}}" in refused["message"] and "secret" in refused["message"]
    assert "REGION" not in refused["message"] and "tok-1234567890" not in refused["message"]
    assert refused["errors"] == [{"field": "config.instructions", "message": refused["message"]}]
    assert client.get(f"{AGENTS}/{agent['id']}").json()["draft"]["revision"] == 1  # nothing saved
    assert _save_instructions(client, agent["id"], "Region {{env.REGION}}.").status_code == 200

    # Nor can a variable the instructions use become a secret, or be added as one.
    marking = assert_error(
        client.patch(f"{base}/REGION", json={"secret": True}), 422, "secret_in_instructions"
    )
    assert "REGION cannot be secret" in marking["message"] and "draft's instructions" in marking["message"]
    assert marking["errors"][0]["field"] == "secret"
    assert {item["name"]: item["secret"] for item in _vars(client, agent["id"])} == {
        "API_TOKEN": True,
        "REGION": False,
    }
    assert client.patch(f"{base}/REGION", json={"value": "us-east"}).status_code == 200  # still plain
    _save_instructions(client, agent["id"], "Use {{env.NEW_KEY}}.").raise_for_status()
    adding = client.post(base, json={"name": "NEW_KEY", "value": "k-0987654321", "secret": True})
    assert_error(adding, 422, "secret_in_instructions")
    assert [item["name"] for item in _vars(client, agent["id"])] == ["API_TOKEN", "REGION"]
    assert client.post(base, json={"name": "OTHER_KEY", "value": "k-1", "secret": True}).status_code == 201


def test_a_published_version_that_uses_a_variable_keeps_it_plain(
    client: TestClient, published_agent: dict[str, Any]
) -> None:
    agent_id = published_agent["id"]
    base = f"{AGENTS}/{agent_id}/env-vars"
    client.post(base, json={"name": "REGION", "value": "eu-west"}).raise_for_status()
    _save_instructions(client, agent_id, "Region {{env.REGION}}.").raise_for_status()
    client.post(f"{AGENTS}/{agent_id}/publish").raise_for_status()
    _save_instructions(client, agent_id, "No variables any more.").raise_for_status()

    refused = assert_error(
        client.patch(f"{base}/REGION", json={"secret": True}), 422, "secret_in_instructions"
    )
    assert (
        "published version 2" in refused["message"] and "Publish a version without it" in refused["message"]
    )
    client.post(f"{AGENTS}/{agent_id}/publish").raise_for_status()
    assert client.patch(f"{base}/REGION", json={"secret": True}).json()["secret"] is True
    # Restoring the version that used it would put a secret into the instructions.
    draft = client.get(f"{AGENTS}/{agent_id}").json()["draft"]
    restore = client.post(f"{AGENTS}/{agent_id}/versions/2/restore", json={"revision": draft["revision"]})
    assert "{{env.REGION}}" in assert_error(restore, 422, "secret_in_instructions")["message"]


def test_publishing_refuses_a_draft_saved_with_a_secret_before_it_was_refused(
    client: TestClient, published_agent: dict[str, Any]
) -> None:
    agent_id = published_agent["id"]
    _save_instructions(client, agent_id, "Key {{env.API_TOKEN}}.").raise_for_status()  # unknown yet
    db = client.app.state.db
    with db.write() as conn:  # as a console from before the rule left it
        conn.execute(
            "INSERT INTO agent_env_vars (agent_id, name, value, secret, created_at, updated_at) "
            "VALUES (?, 'API_TOKEN', ?, 1, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')",
            (agent_id, seal(db, "tok-1234567890")),
        )
    refused = assert_error(client.post(f"{AGENTS}/{agent_id}/publish"), 409, "draft_invalid")
    assert refused["reasons"] == ["Instructions use {{env.API_TOKEN}}, a secret variable: remove it."]
