"""The console's JSON API, pages and runtime route under their access rules (issue 31, class 4;
the matrix and its console: access_matrix.py): no session, and a resource of another agent (or
another dataset or provider) addressed through this one."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from access_matrix import (
    AGENTS,
    ROUTES,
    Console,
    api_key,
    conversation,
    make_console,
    publish,
    routes_of,
)
from api_shortcuts import BROWSER_HEADERS, assert_error, create_agent, upload, wait_for_indexing
from fastapi.testclient import TestClient

from agent_builder.console.services.conversations import NOBODY


@pytest.fixture
def console(
    make_client: Callable[..., TestClient], published_agent: dict[str, Any], active_model: dict[str, Any]
) -> Console:
    return make_console(make_client, published_agent, active_model)


@dataclass(frozen=True)
class Ids:
    """Real ids of one owner's resources, to fill a route's path with."""

    values: dict[str, str]

    def fill(self, path: str) -> str:
        for name, value in self.values.items():
            path = path.replace("{" + name + "}", value)
        assert "{" not in path, f"no id for {path}: add it to the owner's Ids"
        return path


def _owner(console: Console, label: str, *, fake_base_url: str) -> Ids:
    """An agent with one of everything, a dataset with an indexed document, a provider with its
    models: the ids a console route can take."""
    admin = console.admin
    agent = create_agent(admin, f"{label} agent")
    publish(admin, agent, console.model)
    key = api_key(admin, agent["id"])
    variable = admin.post(
        f"{AGENTS}/{agent['id']}/env-vars", json={"name": f"{label.upper()}_TOKEN", "value": "v"}
    )
    assert variable.status_code == 201, variable.text
    file = upload(admin, f"{AGENTS}/{agent['id']}/files", "data.csv", b"a,b\n1,2\n")
    assert file.status_code == 201, file.text
    skill = admin.post(f"{AGENTS}/{agent['id']}/skills", files=[("files", ("SKILL.md", _skill_md(label)))])
    assert skill.status_code == 201, skill.text
    preview_conversation, preview_reply = conversation(admin, agent["id"], "preview", NOBODY)
    dataset = admin.post("/console/api/datasets", json={"name": f"{label} dataset"}).json()
    document = upload(
        admin, f"/console/api/datasets/{dataset['id']}/documents", "notes.md", b"Alpha.\n\nBeta.\n"
    )
    assert document.status_code == 201, document.text
    document_id = document.json()["id"]
    assert wait_for_indexing(admin, dataset["id"], document_id)["indexing_status"] == "completed"
    segments = admin.get(f"/console/api/datasets/{dataset['id']}/documents/{document_id}/segments").json()
    provider = admin.post(
        "/console/api/model-providers",
        json={"name": f"{label} provider", "base_url": fake_base_url, "api_key": "sk-test-0123456789abcdef"},
    ).json()
    return Ids(
        {
            "agent_id": agent["id"],
            "key_id": key["id"],
            "name:env_var": f"{label.upper()}_TOKEN",
            "file_id": file.json()["id"],
            "skill_name": f"{label.lower()}-skill",
            "version": "1",
            "message_id": preview_reply,
            "conversation_id": preview_conversation,
            "dataset_id": dataset["id"],
            "document_id": document_id,
            "segment_id": segments["data"][0]["id"],
            "provider_id": provider["id"],
            "model_id": provider["models"][0]["id"],
            "credential_id": "no-such-credential",
        }
    )


@pytest.fixture
def owners(console: Console, fake_provider: Any) -> Iterator[tuple[Ids, Ids]]:
    yield (
        _owner(console, "Mine", fake_base_url=fake_provider.base_url),
        _owner(console, "Theirs", fake_base_url=fake_provider.base_url),
    )


CONSOLE_ROUTES = routes_of("console")


def test_every_console_route_refuses_a_caller_without_a_session(
    console: Console, owners: tuple[Ids, Ids]
) -> None:
    mine, _ = owners
    anonymous = TestClient(console.admin.app, headers=BROWSER_HEADERS)
    answered = {}
    for method, path in CONSOLE_ROUTES:
        response = anonymous.request(method, mine.fill(path))
        if response.status_code != 401 or response.json().get("code") != "unauthorized":
            answered[f"{method} {path}"] = (response.status_code, response.text[:120])
    assert not answered, f"answered without a session: {answered}"


# Which path ids are the other owner's, per kind of child: the parent stays mine.
CROSS: dict[str, tuple[str, ...]] = {
    "model": ("model_id",),
    "segment": ("segment_id",),
    "document": ("document_id",),
    "version": ("version",),
    "env_var": ("name:env_var",),
    "api_key": ("key_id",),
    "file": ("file_id",),
    "skill": ("skill_name",),
    "preview_message": ("message_id",),
    "preview_conversation": ("conversation_id",),
}


# A valid body where the route needs one: the refusal must be the 404, not a 422 before it.
CROSS_BODIES: dict[tuple[str, str], dict[str, Any]] = {
    ("PATCH", "/console/api/model-providers/{provider_id}/models/{model_id}"): {"active": False},
    ("PATCH", "/console/api/datasets/{dataset_id}/segments/{segment_id}"): {"enabled": False},
    ("POST", "/console/api/agents/{agent_id}/versions/{version}/restore"): {"revision": 1},
    ("PATCH", "/console/api/agents/{agent_id}/env-vars/{name:env_var}"): {"value": "changed"},
}

# Multipart routes: a valid upload (a SKILL.md naming the skill of the path), not a JSON body.
CROSS_FILES = {("PUT", "/console/api/agents/{agent_id}/skills/{skill_name}")}


def _skill_md(label: str) -> bytes:
    return f"---\nname: {label.lower()}-skill\ndescription: The {label} skill.\n---\n".encode()


def test_console_routes_refuse_another_owners_resource(console: Console, owners: tuple[Ids, Ids]) -> None:
    mine, theirs = owners
    # Mine has no published version: its version 1 is the other agent's alone.
    never_published = create_agent(console.admin, "Never published")["id"]
    crossed = [(route, rule) for route, rule in ROUTES.items() if rule.cross]
    assert {rule.cross for _, rule in crossed} == set(CROSS), "every kind of child is crossed"
    answered = {}
    for (method, path), rule in sorted(crossed):
        assert rule.cross is not None
        values = dict(mine.values)
        for name in CROSS[rule.cross]:
            values[name] = theirs.values[name]
        if rule.cross == "version":
            values["agent_id"] = never_published
        body = CROSS_BODIES.get((method, path), {})
        files = None
        if (method, path) in CROSS_FILES:
            files = [("files", ("SKILL.md", _skill_md(values["skill_name"].removesuffix("-skill"))))]
        response = console.admin.request(method, Ids(values).fill(path), json=body, files=files)
        if response.status_code != 404 or response.json().get("code") != "not_found":
            answered[f"{method} {path}"] = (response.status_code, response.text[:120])
    assert not answered, f"another owner's resource reached through mine: {answered}"
    _still_there(console.admin, theirs)


def _still_there(admin: TestClient, theirs: Ids) -> None:
    """Nothing of the other owner's was changed or removed by the crossed requests."""
    agent = theirs.values["agent_id"]
    assert [k["id"] for k in admin.get(f"{AGENTS}/{agent}/api-keys").json()["data"]] == [
        theirs.values["key_id"]
    ]
    assert [f["id"] for f in admin.get(f"{AGENTS}/{agent}/files").json()["data"]] == [
        theirs.values["file_id"]
    ]
    names = [v["name"] for v in admin.get(f"{AGENTS}/{agent}/env-vars").json()["data"]]
    assert names == [theirs.values["name:env_var"]]
    skills = admin.get(f"{AGENTS}/{agent}/skills").json()["data"]
    assert [(s["name"], s["description"]) for s in skills] == [
        (theirs.values["skill_name"], "The Theirs skill.")
    ]
    documents = admin.get(f"/console/api/datasets/{theirs.values['dataset_id']}/documents").json()["data"]
    assert [d["id"] for d in documents] == [theirs.values["document_id"]]


def test_console_pages_send_a_caller_without_a_session_to_sign_in(
    console: Console, owners: tuple[Ids, Ids]
) -> None:
    mine, _ = owners
    anonymous = TestClient(console.admin.app, follow_redirects=False)
    for method, path in sorted(route for route, rule in ROUTES.items() if rule.surface == "page"):
        response = anonymous.request(method, mine.fill(path))
        assert response.status_code == 303, (path, response.status_code)
        assert response.headers["location"].startswith("/login?next="), (path, response.headers["location"])


def test_the_runtime_route_refuses_a_caller_without_a_run_token(console: Console) -> None:
    anonymous = TestClient(console.admin.app)
    for method, path in sorted(route for route, rule in ROUTES.items() if rule.surface == "internal"):
        body = {"dataset_ids": [], "query": "x"}
        assert_error(anonymous.request(method, path, json=body), 401, "invalid_token")
        headers = {"Authorization": "Bearer made-up-run-token"}
        assert_error(anonymous.request(method, path, json=body, headers=headers), 401, "invalid_token")
