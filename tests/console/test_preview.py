"""The configure page's preview: chat with the draft through the real runtime (chat_stack.py), in
conversations that no public surface sees."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.console.chat_stack import (
    ChatStack,
    Event,
    api_key,
    chat_stack,
    publish_agent,
    read_events,
    site_token,
)
from tests.runtime.runtime_testing import ScriptedProvider, Stall, Text


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ChatStack]:
    with chat_stack(tmp_path_factory.mktemp("preview-stack")) as stack:
        yield stack


@pytest.fixture
def scripted(stack: ChatStack) -> ScriptedProvider:
    stack.scripted.reset()
    return stack.scripted


@pytest.fixture
def public(stack: ChatStack) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=stack.console_url, timeout=30) as client:
        yield client


def preview(stack: ChatStack, agent: dict[str, Any], query: str, **fields: Any) -> list[Event]:
    url = f"/console/api/agents/{agent['id']}/preview/messages"
    with stack.api.stream("POST", url, json={"query": query, **fields}) as response:
        assert response.status_code == 200, response.read()
        return list(read_events(response.iter_lines()))


def edit_draft(stack: ChatStack, agent: dict[str, Any], **config: Any) -> None:
    draft = stack.api.get(f"/console/api/agents/{agent['id']}").json()["draft"]
    body = {"revision": draft["revision"], "config": {**draft["config"], **config}}
    stack.api.put(f"/console/api/agents/{agent['id']}/draft", json=body).raise_for_status()


def system_prompt(scripted: ScriptedProvider, call: int) -> str:
    return str(scripted.chat_calls()[call].body["messages"][0]["content"])


def test_the_preview_answers_from_the_draft_and_the_web_app_from_the_published_version(
    stack: ChatStack, scripted: ScriptedProvider, public: httpx.Client
) -> None:
    agent = publish_agent(stack.api, stack.scripted_model, instructions="Published instructions.")
    edit_draft(stack, agent, instructions="Draft instructions.")
    scripted.reset(Text("From the draft."), Text("From the published version."))
    events = preview(stack, agent, "Who are you?")
    assert (events[0].name, events[-1].name) == ("message_start", "message_end")
    reply = events[-1].data
    assert (reply["content"], reply["status"], reply["agent_version"]) == (
        "From the draft. ",
        "completed",
        None,
    )
    with public.stream("POST", f"/chat/{site_token(agent)}/api/messages", json={"query": "Who?"}) as response:
        assert list(read_events(response.iter_lines()))[-1].data["agent_version"] == 1
    assert system_prompt(scripted, 0) == "Draft instructions."
    assert system_prompt(scripted, 1) == "Published instructions."


def test_a_draft_saved_during_a_reply_applies_to_the_next_message(
    stack: ChatStack, scripted: ScriptedProvider
) -> None:
    agent = publish_agent(stack.api, stack.scripted_model, instructions="First instructions.")
    scripted.reset(Stall("Working"), Text("Next."))
    url = f"/console/api/agents/{agent['id']}/preview/messages"
    with stack.api.stream("POST", url, json={"query": "Start"}) as response:
        events = read_events(response.iter_lines())
        start = next(events)
        assert next(events).name == "message_delta"
        edit_draft(stack, agent, instructions="Second instructions.")
        stack.api.post(f"{url}/{start.data['message_id']}/stop").raise_for_status()
    conversation = {"conversation_id": start.data["conversation_id"]}
    assert preview(stack, agent, "Again", **conversation)[-1].data["status"] == "completed"
    assert [system_prompt(scripted, call) for call in (0, 1)] == [
        "First instructions.",
        "Second instructions.",
    ]


def test_preview_conversations_appear_on_no_public_surface(
    stack: ChatStack, scripted: ScriptedProvider, public: httpx.Client
) -> None:
    agent = publish_agent(stack.api, stack.scripted_model)
    scripted.reset(Text("Private."), Text("Public."))
    conversation_id = preview(stack, agent, "Hi")[0].data["conversation_id"]
    listed = stack.api.get(
        f"/console/api/agents/{agent['id']}/preview/conversations/{conversation_id}/messages"
    )
    assert [m["role"] for m in listed.json()["data"]] == ["user", "assistant"]

    web_app = f"/chat/{site_token(agent)}/api"
    assert public.get(f"{web_app}/conversations/{conversation_id}/messages").status_code == 404
    continued = public.post(f"{web_app}/messages", json={"query": "Hi", "conversation_id": conversation_id})
    assert continued.json()["code"] == "not_found"
    headers = api_key(stack.api, agent)
    listed_by_api = public.get(
        f"/v1/conversations/{conversation_id}/messages", headers=headers, params={"user": "e2e"}
    )
    assert listed_by_api.status_code == 404

    with public.stream("POST", f"{web_app}/messages", json={"query": "Hi"}) as response:
        web_conversation = next(read_events(response.iter_lines())).data["conversation_id"]
    other = stack.api.get(
        f"/console/api/agents/{agent['id']}/preview/conversations/{web_conversation}/messages"
    )
    assert other.status_code == 404


def test_stop_and_refusals(stack: ChatStack, scripted: ScriptedProvider, public: httpx.Client) -> None:
    agent = publish_agent(stack.api, stack.scripted_model)
    url = f"/console/api/agents/{agent['id']}/preview/messages"
    scripted.reset(Stall("Partial"))
    with stack.api.stream("POST", url, json={"query": "Long story"}) as response:
        events = read_events(response.iter_lines())
        start = next(events)
        assert next(events) == Event("message_delta", {"text": "Partial "})
        stopped = stack.api.post(f"{url}/{start.data['message_id']}/stop").raise_for_status().json()
    assert (stopped["status"], stopped["content"]) == ("cancelled", "Partial ")
    # The web app cannot stop a preview reply.
    assert public.post(f"/chat/{site_token(agent)}/api/messages/{stopped['id']}/stop").status_code == 404

    assert public.post(url, json={"query": "Hi"}).json()["code"] == "unauthorized"
    unknown = stack.api.post("/console/api/agents/nope/preview/messages", json={"query": "Hi"})
    assert (unknown.status_code, unknown.json()["code"]) == (404, "not_found")
    bare = stack.api.post("/console/api/agents", json={"name": "No model"}).raise_for_status().json()
    refused = stack.api.post(f"/console/api/agents/{bare['id']}/preview/messages", json={"query": "Hi"})
    assert (refused.status_code, refused.json()["code"]) == (409, "model_unavailable")
    assert refused.json()["message"] == "The draft has no model: choose one under Model."
    assert scripted.chat_calls()[1:] == []


def test_knowledge_passages_carry_their_dataset_and_document(stack: ChatStack) -> None:
    dataset = (
        stack.api.post("/console/api/datasets", json={"name": "Station policies"}).raise_for_status().json()
    )
    document = stack.api.post(
        f"/console/api/datasets/{dataset['id']}/documents",
        files={"file": ("refunds.md", b"Refunds: the refund token is KNOW-5150.")},
    ).raise_for_status()
    document_url = f"/console/api/datasets/{dataset['id']}/documents/{document.json()['id']}"
    deadline = time.monotonic() + 10
    while stack.api.get(document_url).json()["indexing_status"] != "completed":
        assert time.monotonic() < deadline, "indexing did not complete"
        time.sleep(0.05)
    agent = stack.api.post("/console/api/agents", json={"name": "Cites"}).raise_for_status().json()
    edit_draft(
        stack,
        agent,
        model=stack.reference_model,
        tools=[{"name": "knowledge_search", "enabled": True}],
        knowledge={"dataset_ids": [dataset["id"]], "top_k": 2, "score_threshold": None},
    )
    events = preview(stack, agent, "Search the knowledge base for the refund token")
    result = next(event.data for event in events if event.name == "tool_result")
    citation = {
        "dataset_id": dataset["id"],
        "dataset_name": "Station policies",
        "document_id": document.json()["id"],
        "document_name": "refunds.md",
    }
    assert "KNOW-5150" in result["output"] and result["citations"] == [citation]
    assert events[-1].data["tool_calls"][0]["citations"] == [citation]
