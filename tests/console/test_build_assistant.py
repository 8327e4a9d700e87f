"""The build assistant: the decision model's structured proposal (validated), kept pending until
it is applied to the draft as one revision or discarded."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from api_shortcuts import PROVIDER_KEY, assert_error, create_agent, save_config, sign_in, upload
from fastapi.testclient import TestClient

from tests.fakes.upstream import Answer, CallTool, FakeUpstream, Status

DESCRIPTION = "A support desk agent that answers refund questions."
PROPOSAL = {
    "instructions": "You answer refund questions in two sentences.",
    "opening_statement": "Hello from the support desk.",
    "suggested_questions": ["What is the refund window?", "How do I escalate?"],
    "tools": ["knowledge_search", "image_studio"],
    "knowledge": ["Policies", "Missing dataset"],
}

SKILL = {
    "name": "release-notes",
    "description": "Turns a changelog into release notes.",
    "instructions": "# Notes",
}


@pytest.fixture
def agent_path(client: TestClient, fake_provider: FakeUpstream) -> str:
    """An agent, with the fake provider's gpt-4.1 active and chosen as the decision model."""
    body = {"name": "Scripted", "base_url": fake_provider.base_url, "api_key": PROVIDER_KEY}
    provider = client.post("/console/api/model-providers", json=body).json()
    model = next(m for m in provider["models"] if m["name"] == "gpt-4.1")
    client.patch(f"/console/api/model-providers/{provider['id']}/models/{model['id']}", json={"active": True})
    decision = {"decision_model": {"provider_id": provider["id"], "name": "gpt-4.1"}}
    assert client.put("/console/api/system-models", json=decision).status_code == 200
    return f"/console/api/agents/{create_agent(client)['id']}"


def propose(client: TestClient, path: str, fake_provider: FakeUpstream, arguments: Any = PROPOSAL) -> Any:
    fake_provider.reply(CallTool("propose_draft", arguments))
    return client.post(f"{path}/build-assistant/proposal", json={"description": DESCRIPTION})


def draft(client: TestClient, path: str) -> dict[str, Any]:
    return client.get(path).json()["draft"]


def test_a_proposal_is_kept_pending_and_leaves_the_draft_alone(
    client: TestClient, agent_path: str, fake_provider: FakeUpstream, make_client: Callable[..., TestClient]
) -> None:
    policies = client.post("/console/api/datasets", json={"name": "Policies"}).json()
    before = draft(client, agent_path)
    response = propose(client, agent_path, fake_provider)
    assert response.status_code == 200, response.text
    proposal = response.json()
    assert proposal["instructions"] == PROPOSAL["instructions"]
    assert [(t["name"], t["label"], t["available"]) for t in proposal["tools"]] == [
        ("knowledge_search", "Knowledge search", True),
        ("image_studio", "image_studio", False),
    ]
    assert proposal["tools"][1]["reason"] == "No tool named 'image_studio' exists."
    assert [(d["id"], d["available"]) for d in proposal["knowledge"]] == [
        (policies["id"], True),
        (None, False),
    ]
    assert draft(client, agent_path) == before

    (call,) = fake_provider.calls("/v1/chat")
    assert call.headers["x-model-caller"] == "build_assistant"
    assert call.body["tool_choice"] == {"type": "function", "function": {"name": "propose_draft"}}
    assert [tool["function"]["name"] for tool in call.body["tools"]] == ["propose_draft"]
    assert call.body["messages"][-1] == {"role": "user", "content": DESCRIPTION}
    assert "Policies" in call.body["messages"][0]["content"]

    # Pending across requests and restarts, until applied or discarded.
    restarted = make_client()
    sign_in(restarted)
    assert restarted.get(f"{agent_path}/build-assistant/proposal").json()["proposal"] == proposal


def test_apply_writes_the_named_sections_in_one_revision(
    client: TestClient, agent_path: str, fake_provider: FakeUpstream
) -> None:
    policies = client.post("/console/api/datasets", json={"name": "Policies"}).json()
    save_config(
        client,
        {"id": agent_path.rsplit("/", 1)[-1]},
        parameters={"temperature": 1.3, "max_tokens": 900},
        tools=[{"name": "sandbox_shell", "enabled": True}],
        knowledge={"dataset_ids": [], "top_k": 7, "score_threshold": 0.4, "retrieval_mode": "every_message"},
    )
    upload(client, f"{agent_path}/files", "notes.txt", b"keep me")
    before = draft(client, agent_path)
    assert propose(client, agent_path, fake_provider).status_code == 200

    stale = client.post(
        f"{agent_path}/build-assistant/proposal/apply", json={"revision": before["revision"] - 1}
    )
    assert assert_error(stale, 409, "revision_conflict")["current_revision"] == before["revision"]
    applied = client.post(
        f"{agent_path}/build-assistant/proposal/apply", json={"revision": before["revision"]}
    )
    assert applied.status_code == 200, applied.text
    after = draft(client, agent_path)
    assert after["revision"] == applied.json()["revision"] == before["revision"] + 1
    config = after["config"]
    assert config["instructions"] == PROPOSAL["instructions"]
    assert config["opening_statement"] == PROPOSAL["opening_statement"]
    assert config["suggested_questions"] == PROPOSAL["suggested_questions"]
    assert config["tools"] == [
        {"name": "sandbox_shell", "enabled": False},
        {"name": "knowledge_search", "enabled": True},
    ]
    assert config["knowledge"] == {
        "dataset_ids": [policies["id"]],
        "top_k": 7,
        "score_threshold": 0.4,
        "retrieval_mode": "every_message",
    }
    assert (config["parameters"], config["model"]) == (
        before["config"]["parameters"],
        before["config"]["model"],
    )
    assert [f["name"] for f in client.get(f"{agent_path}/files").json()["data"]] == ["notes.txt"]
    assert client.get(f"{agent_path}/build-assistant/proposal").json() == {"proposal": None}


def test_a_dataset_name_two_datasets_share_is_unavailable_and_applying_attaches_neither(
    client: TestClient, agent_path: str, fake_provider: FakeUpstream
) -> None:
    twins = [client.post("/console/api/datasets", json={"name": "Policies"}).json() for _ in range(2)]
    assert twins[0]["id"] != twins[1]["id"]
    proposed = propose(client, agent_path, fake_provider, {"knowledge": ["Policies"]})
    assert proposed.status_code == 200, proposed.text
    assert proposed.json()["knowledge"] == [
        {
            "name": "Policies",
            "label": "Policies",
            "id": None,
            "available": False,
            "reason": "2 datasets are named 'Policies'.",
        }
    ]
    before = draft(client, agent_path)
    client.post(f"{agent_path}/build-assistant/proposal/apply", json={"revision": before["revision"]})
    assert draft(client, agent_path)["config"]["knowledge"]["dataset_ids"] == []


def test_a_partial_proposal_touches_only_what_it_names(
    client: TestClient, agent_path: str, fake_provider: FakeUpstream
) -> None:
    save_config(
        client, {"id": agent_path.rsplit("/", 1)[-1]}, instructions="Keep me.", opening_statement="Hi."
    )
    before = draft(client, agent_path)
    assert (
        propose(client, agent_path, fake_provider, {"suggested_questions": ["Only this?"]}).status_code == 200
    )
    client.post(f"{agent_path}/build-assistant/proposal/apply", json={"revision": before["revision"]})
    config = draft(client, agent_path)["config"]
    assert config == {**before["config"], "suggested_questions": ["Only this?"]}


def test_discard_drops_the_proposal_only(
    client: TestClient, agent_path: str, fake_provider: FakeUpstream
) -> None:
    before = draft(client, agent_path)
    propose(client, agent_path, fake_provider)
    assert client.delete(f"{agent_path}/build-assistant/proposal").status_code == 204
    assert client.get(f"{agent_path}/build-assistant/proposal").json() == {"proposal": None}
    assert draft(client, agent_path) == before
    assert_error(client.delete(f"{agent_path}/build-assistant/proposal"), 404, "not_found")
    apply = client.post(f"{agent_path}/build-assistant/proposal/apply", json={"revision": before["revision"]})
    assert_error(apply, 404, "not_found")


@pytest.mark.parametrize(
    ("answer", "code", "detail"),
    [
        (
            CallTool("propose_draft", {"suggested_questions": ["q"] * 6}),
            "invalid_proposal",
            "at most 5",
        ),
        (CallTool("propose_draft", {"colour": "blue"}), "invalid_proposal", "colour"),
        (
            CallTool("propose_draft", {"skills": [SKILL, {**SKILL, "description": "Again."}]}),
            "invalid_proposal",
            "two skills are named release-notes",
        ),
        (  # several names twice: the first in sorted order is named, whatever order they came in
            CallTool("propose_draft", {"skills": [{**SKILL, "name": name} for name in "baba"]}),
            "invalid_proposal",
            "two skills are named a.",
        ),
        (
            CallTool("propose_draft", {"skills": [{**SKILL, "name": "Release Notes"}]}),
            "invalid_proposal",
            "skills.0.name",
        ),
        (CallTool("propose_draft", "not json"), "invalid_proposal", "Invalid JSON"),
        (CallTool("something_else", {}), "proposal_failed", "without calling propose_draft"),
        (
            Status(401, f"Incorrect API key {PROVIDER_KEY}"),
            "proposal_failed",
            "HTTP 401: Incorrect API key ***",
        ),
    ],
)
def test_a_bad_answer_is_a_502_and_nothing_is_kept(
    client: TestClient, agent_path: str, fake_provider: FakeUpstream, answer: Answer, code: str, detail: str
) -> None:
    fake_provider.reply(answer)
    response = client.post(f"{agent_path}/build-assistant/proposal", json={"description": DESCRIPTION})
    message = assert_error(response, 502, code)["message"]
    assert detail in message and PROVIDER_KEY not in message
    assert client.get(f"{agent_path}/build-assistant/proposal").json() == {"proposal": None}


def test_without_a_decision_model_nothing_is_asked(client: TestClient, fake_provider: FakeUpstream) -> None:
    path = f"/console/api/agents/{create_agent(client)['id']}/build-assistant/proposal"
    assert_error(client.post(path, json={"description": DESCRIPTION}), 409, "decision_model_not_configured")
    assert_error(client.post(path, json={"description": "  "}), 422, "invalid_request")
    missing = client.post("/console/api/agents/nope/build-assistant/proposal", json={"description": "x"})
    assert_error(missing, 404, "not_found")
    assert fake_provider.calls("/v1/chat") == []


def test_a_proposal_never_puts_a_secret_variable_into_the_instructions(
    client: TestClient, agent_path: str, fake_provider: FakeUpstream
) -> None:
    """Secret variables never reach the model through the instructions (issue 25): a proposal
    that uses one is refused and not kept; one that became secret since is refused at apply."""
    variables = f"{agent_path}/env-vars"
    client.post(variables, json={"name": "API_TOKEN", "value": "tok-1234567890", "secret": True})
    client.post(variables, json={"name": "REGION", "value": "eu-west"})
    leaky = {**PROPOSAL, "instructions": "Call the API with {{env.API_TOKEN}} in {{env.REGION}}."}
    refused = assert_error(propose(client, agent_path, fake_provider, leaky), 422, "secret_in_instructions")
    assert "The proposed instructions use {{env.API_TOKEN}}, a secret variable" in refused["message"]
    assert "REGION" not in refused["message"] and "not kept" in refused["message"]
    assert client.get(f"{agent_path}/build-assistant/proposal").json() == {"proposal": None}

    plain = {**PROPOSAL, "instructions": "Answer for {{env.REGION}}."}
    assert propose(client, agent_path, fake_provider, plain).status_code == 200
    assert client.patch(f"{variables}/REGION", json={"secret": True}).status_code == 200  # not in the draft
    before = draft(client, agent_path)
    applying = client.post(
        f"{agent_path}/build-assistant/proposal/apply", json={"revision": before["revision"]}
    )
    assert "{{env.REGION}}" in assert_error(applying, 422, "secret_in_instructions")["message"]
    assert draft(client, agent_path) == before
    assert client.get(f"{agent_path}/build-assistant/proposal").json()["proposal"] is not None


def _upload_skill(client: TestClient, path: str, skill_md: bytes) -> None:
    response = client.post(f"{path}/skills", files=[("files", ("SKILL.md", skill_md))])
    assert response.status_code == 201, response.text


def _apply(client: TestClient, path: str) -> Any:
    revision = draft(client, path)["revision"]
    applied = client.post(f"{path}/build-assistant/proposal/apply", json={"revision": revision})
    assert applied.status_code == 200, applied.text
    return applied.json()["config"]["skills"]


def test_a_proposed_skill_is_added_once_however_often_it_is_applied(
    client: TestClient, agent_path: str, fake_provider: FakeUpstream
) -> None:
    greeting = b"---\nname: greeting\ndescription: Greets visitors.\n---\n"
    _upload_skill(client, agent_path, greeting)
    shown = propose(client, agent_path, fake_provider, {"skills": [SKILL]}).json()["skills"]
    assert [(s["name"], s["description"], s["change"], s["available"]) for s in shown] == [
        ("release-notes", "Turns a changelog into release notes.", "new", True)
    ]
    first = _apply(client, agent_path)
    assert [(s["name"], [f["path"] for f in s["files"]]) for s in first] == [
        ("greeting", ["SKILL.md"]),
        ("release-notes", ["SKILL.md"]),
    ]
    again = propose(client, agent_path, fake_provider, {"skills": [SKILL]}).json()["skills"]
    assert [s["change"] for s in again] == ["unchanged"]
    assert _apply(client, agent_path) == first

    rewritten = {**SKILL, "description": "Writes release notes."}
    replaced = propose(client, agent_path, fake_provider, {"skills": [rewritten]}).json()["skills"]
    assert [s["change"] for s in replaced] == ["replaced"]
    assert [(s["name"], s["description"]) for s in _apply(client, agent_path)] == [
        ("greeting", "Greets visitors."),
        ("release-notes", "Writes release notes."),
    ]


def test_a_proposed_skill_past_the_limit_is_unavailable_and_left_out(
    client: TestClient, agent_path: str, fake_provider: FakeUpstream
) -> None:
    for number in range(10):
        text = f"---\nname: skill-{number}\ndescription: Skill {number}.\n---\n".encode()
        _upload_skill(client, agent_path, text)
    rewrite = {**SKILL, "name": "skill-3"}
    shown = propose(client, agent_path, fake_provider, {"skills": [SKILL, rewrite]}).json()["skills"]
    assert [(s["name"], s["available"], s["reason"]) for s in shown] == [
        ("release-notes", False, "An agent can have at most 10 skills."),
        ("skill-3", True, None),
    ]
    skills = _apply(client, agent_path)
    assert [s["name"] for s in skills] == [f"skill-{number}" for number in range(10)]
    assert skills[3]["description"] == "Turns a changelog into release notes."
