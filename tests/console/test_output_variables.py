"""Output variables in the draft: a whole nested record saved and read back, published, duplicated
and restored with the rest of the draft; names and types refused with the reason, nothing saved."""

from __future__ import annotations

from typing import Any

import pytest
from api_shortcuts import create_agent, save_config
from fastapi.testclient import TestClient

OUTPUTS: list[dict[str, Any]] = [
    {"name": "summary", "type": "string", "description": "One sentence.", "items": "string", "fields": []},
    {"name": "score", "type": "number", "description": "", "items": "string", "fields": []},
    {"name": "urgent", "type": "boolean", "description": "", "items": "string", "fields": []},
    {"name": "tags", "type": "array", "description": "", "items": "number", "fields": []},
    {
        "name": "customer",
        "type": "object",
        "description": "",
        "items": "string",
        "fields": [{"name": "email", "type": "string", "description": "", "items": "string", "fields": []}],
    },
]


def _draft(client: TestClient, agent: dict[str, Any]) -> dict[str, Any]:
    return dict(client.get(f"/console/api/agents/{agent['id']}").json()["draft"])


def test_outputs_are_saved_whole_and_travel_with_the_draft(client: TestClient) -> None:
    agent = create_agent(client)
    assert _draft(client, agent)["config"]["outputs"] == []
    assert save_config(client, agent, outputs=OUTPUTS)["config"]["outputs"] == OUTPUTS
    assert _draft(client, agent)["config"]["outputs"] == OUTPUTS
    copy = client.post(f"/console/api/agents/{agent['id']}/duplicate", json={})
    assert copy.status_code == 201, copy.text
    assert _draft(client, copy.json())["config"]["outputs"] == OUTPUTS


def _refused(client: TestClient, agent: dict[str, Any], outputs: Any) -> dict[str, Any]:
    draft = _draft(client, agent)
    body = {"revision": draft["revision"], "config": {**draft["config"], "outputs": outputs}}
    response = client.put(f"/console/api/agents/{agent['id']}/draft", json=body)
    assert response.status_code == 422, response.text
    assert _draft(client, agent) == draft  # nothing saved
    return dict(response.json())


def _out(name: str, kind: str = "string", **more: Any) -> dict[str, Any]:
    return {"name": name, "type": kind, **more}


@pytest.mark.parametrize(
    ("outputs", "message"),
    [
        (
            [_out("summary"), _out("Summary")],
            '"summary" and "Summary" are the same output name: names ignore case.',
        ),
        ([_out("summary"), _out("summary", "number")], 'The output "summary" is listed twice.'),
        ([_out("2nd")], '"2nd" is not a valid output name'),
        ([_out("first name")], '"first name" is not a valid output name'),
        ([_out("")], "An output name cannot be empty."),
        ([_out("when", "date")], 'The output "when" has an unknown type "date"'),
        (
            [_out("tags", "array", items="object")],
            'The items of "tags" must be one of string, number, boolean.',
        ),
        ([_out("n", "number", fields=[_out("x")])], 'Only an object output has fields: "n" is a number.'),
        (
            [_out("a", "object", fields=[_out("b"), _out("B")])],
            '"b" and "B" are the same output name of "a": names ignore case.',
        ),
        (
            [
                _out(
                    "a",
                    "object",
                    fields=[_out("b", "object", fields=[_out("c", "object", fields=[_out("d")])])],
                )
            ],
            'Outputs nest at most 3 levels: "a.b.c" has fields.',
        ),
        ([_out(f"o{n}") for n in range(21)], "At most 20 outputs: this list has 21."),
    ],
)
def test_bad_outputs_are_refused_with_the_reason(client: TestClient, outputs: Any, message: str) -> None:
    agent = create_agent(client)
    error = _refused(client, agent, outputs)
    assert error["code"] == "invalid_request"
    assert message in error["message"], error


def test_the_limits_themselves_are_accepted(client: TestClient) -> None:
    agent = create_agent(client)
    deep = [_out("a", "object", fields=[_out("b", "object", fields=[_out("c", "object")])])]
    save_config(client, agent, outputs=deep)
    save_config(client, agent, outputs=[_out(f"o{n}") for n in range(20)] + [])
    saved = save_config(client, agent, outputs=[_out("_x" + "y" * 62)])
    assert saved["config"]["outputs"][0]["name"] == "_x" + "y" * 62


def test_outputs_are_published_and_restored_with_the_version(
    client: TestClient, published_agent: dict[str, Any]
) -> None:
    agents = f"/console/api/agents/{published_agent['id']}"
    save_config(client, published_agent, outputs=OUTPUTS)
    assert client.post(f"{agents}/publish", json=None).status_code == 200
    assert client.get(f"{agents}/versions/2").json()["config"]["outputs"] == OUTPUTS
    revision = save_config(client, published_agent, outputs=[])["revision"]
    restored = client.post(f"{agents}/versions/2/restore", json={"revision": revision})
    assert restored.status_code == 200, restored.text
    assert restored.json()["config"]["outputs"] == OUTPUTS
    assert client.get(agents).json()["published"]["config"]["outputs"] == OUTPUTS
