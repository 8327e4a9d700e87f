"""Environment variables: the API's rules, write-only secrets, and `.env` import."""

from __future__ import annotations

from typing import Any

from api_shortcuts import assert_error, create_agent
from fastapi.testclient import TestClient

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
