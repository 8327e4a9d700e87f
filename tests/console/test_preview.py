"""The configure page's preview: chat with the draft through the real runtime
(tests/chat_stack.py), in conversations that no public surface sees."""

from __future__ import annotations

from typing import Any

import httpx

from tests.chat_stack import ChatStack
from tests.console_api_setup import api_key, indexed_document, publish_agent, site_token
from tests.fakes.upstream import FakeUpstream, Stall, Text
from tests.sse_events import Event, read_events


def preview(chat_stack: ChatStack, agent: dict[str, Any], query: str, **fields: Any) -> list[Event]:
    url = f"/console/api/agents/{agent['id']}/preview/messages"
    with chat_stack.api.stream("POST", url, json={"query": query, **fields}) as response:
        assert response.status_code == 200, response.read()
        return list(read_events(response))


def edit_draft(chat_stack: ChatStack, agent: dict[str, Any], **config: Any) -> None:
    draft = chat_stack.api.get(f"/console/api/agents/{agent['id']}").json()["draft"]
    body = {"revision": draft["revision"], "config": {**draft["config"], **config}}
    chat_stack.api.put(f"/console/api/agents/{agent['id']}/draft", json=body).raise_for_status()


def system_prompt(fake_upstream: FakeUpstream, call: int) -> str:
    return str(fake_upstream.calls("/v1/chat")[call].body["messages"][0]["content"])


def test_the_preview_answers_from_the_draft_and_the_web_app_from_the_published_version(
    chat_stack: ChatStack, fake_upstream: FakeUpstream, public_client: httpx.Client
) -> None:
    agent = publish_agent(chat_stack.api, chat_stack.scripted_model, instructions="Published instructions.")
    edit_draft(chat_stack, agent, instructions="Draft instructions.")
    fake_upstream.reply(Text("From the draft."), Text("From the published version."))
    events = preview(chat_stack, agent, "Who are you?")
    assert (events[0].name, events[-1].name) == ("message_start", "message_end")
    reply = events[-1].data
    assert (reply["content"], reply["status"], reply["agent_version"]) == (
        "From the draft. ",
        "completed",
        None,
    )
    with public_client.stream(
        "POST", f"/chat/{site_token(agent)}/api/messages", json={"query": "Who?"}
    ) as response:
        assert list(read_events(response))[-1].data["agent_version"] == 1
    assert system_prompt(fake_upstream, 0) == "Draft instructions."
    assert system_prompt(fake_upstream, 1) == "Published instructions."


def test_a_draft_saved_during_a_reply_applies_to_the_next_message(
    chat_stack: ChatStack, fake_upstream: FakeUpstream
) -> None:
    agent = publish_agent(chat_stack.api, chat_stack.scripted_model, instructions="First instructions.")
    fake_upstream.reply(Stall("Working"), Text("Next."))
    url = f"/console/api/agents/{agent['id']}/preview/messages"
    with chat_stack.api.stream("POST", url, json={"query": "Start"}) as response:
        events = read_events(response)
        start = next(events)
        assert next(events).name == "message_delta"
        edit_draft(chat_stack, agent, instructions="Second instructions.")
        chat_stack.api.post(f"{url}/{start.data['message_id']}/stop").raise_for_status()
    conversation = {"conversation_id": start.data["conversation_id"]}
    assert preview(chat_stack, agent, "Again", **conversation)[-1].data["status"] == "completed"
    assert [system_prompt(fake_upstream, call) for call in (0, 1)] == [
        "First instructions.",
        "Second instructions.",
    ]


def test_preview_conversations_appear_on_no_public_surface(
    chat_stack: ChatStack, fake_upstream: FakeUpstream, public_client: httpx.Client
) -> None:
    agent = publish_agent(chat_stack.api, chat_stack.scripted_model)
    fake_upstream.reply(Text("Private."), Text("Public."))
    conversation_id = preview(chat_stack, agent, "Hi")[0].data["conversation_id"]
    listed = chat_stack.api.get(
        f"/console/api/agents/{agent['id']}/preview/conversations/{conversation_id}/messages"
    )
    assert [m["role"] for m in listed.json()["data"]] == ["user", "assistant"]

    web_app = f"/chat/{site_token(agent)}/api"
    assert public_client.get(f"{web_app}/conversations/{conversation_id}/messages").status_code == 404
    continued = public_client.post(
        f"{web_app}/messages", json={"query": "Hi", "conversation_id": conversation_id}
    )
    assert continued.json()["code"] == "not_found"
    headers = api_key(chat_stack.api, agent)
    listed_by_api = public_client.get(
        f"/v1/conversations/{conversation_id}/messages", headers=headers, params={"user": "e2e"}
    )
    assert listed_by_api.status_code == 404

    with public_client.stream("POST", f"{web_app}/messages", json={"query": "Hi"}) as response:
        web_conversation = next(read_events(response)).data["conversation_id"]
    other = chat_stack.api.get(
        f"/console/api/agents/{agent['id']}/preview/conversations/{web_conversation}/messages"
    )
    assert other.status_code == 404


def test_a_preview_conversation_is_its_agents_alone(
    chat_stack: ChatStack, fake_upstream: FakeUpstream
) -> None:
    # Preview conversations have no owner (only the admin previews): their agent is their only scope.
    first, second = (
        publish_agent(chat_stack.api, chat_stack.scripted_model),
        publish_agent(chat_stack.api, chat_stack.scripted_model),
    )
    fake_upstream.reply(Text("First agent."))
    conversation_id = preview(chat_stack, first, "Hi")[0].data["conversation_id"]
    path = "/console/api/agents/{}/preview/conversations/" + conversation_id + "/messages"
    assert chat_stack.api.get(path.format(first["id"])).status_code == 200
    assert chat_stack.api.get(path.format(second["id"])).status_code == 404


def test_stop_and_refusals(
    chat_stack: ChatStack, fake_upstream: FakeUpstream, public_client: httpx.Client
) -> None:
    agent = publish_agent(chat_stack.api, chat_stack.scripted_model)
    url = f"/console/api/agents/{agent['id']}/preview/messages"
    fake_upstream.reply(Stall("Partial"))
    with chat_stack.api.stream("POST", url, json={"query": "Long story"}) as response:
        events = read_events(response)
        start = next(events)
        assert next(events) == Event("message_delta", {"text": "Partial "})
        stopped = chat_stack.api.post(f"{url}/{start.data['message_id']}/stop").raise_for_status().json()
    assert (stopped["status"], stopped["content"]) == ("cancelled", "Partial ")
    # The web app cannot stop a preview reply.
    assert (
        public_client.post(f"/chat/{site_token(agent)}/api/messages/{stopped['id']}/stop").status_code == 404
    )

    assert public_client.post(url, json={"query": "Hi"}).json()["code"] == "unauthorized"
    unknown = chat_stack.api.post("/console/api/agents/nope/preview/messages", json={"query": "Hi"})
    assert (unknown.status_code, unknown.json()["code"]) == (404, "not_found")
    bare = chat_stack.api.post("/console/api/agents", json={"name": "No model"}).raise_for_status().json()
    refused = chat_stack.api.post(f"/console/api/agents/{bare['id']}/preview/messages", json={"query": "Hi"})
    assert (refused.status_code, refused.json()["code"]) == (409, "model_unavailable")
    assert refused.json()["message"] == "The draft has no model: choose one under Model."
    assert fake_upstream.calls("/v1/chat")[1:] == []


def test_knowledge_passages_carry_their_dataset_and_document(chat_stack: ChatStack) -> None:
    content = b"Refunds: the refund token is KNOW-5150."
    dataset, document = indexed_document(chat_stack.api, "Station policies", "refunds.md", content)
    agent = chat_stack.api.post("/console/api/agents", json={"name": "Cites"}).raise_for_status().json()
    edit_draft(
        chat_stack,
        agent,
        model=chat_stack.reference_model,
        tools=[{"name": "knowledge_search", "enabled": True}],
        knowledge={"dataset_ids": [dataset["id"]], "top_k": 2, "score_threshold": None},
    )
    events = preview(chat_stack, agent, "Search the knowledge base for the refund token")
    result = next(event.data for event in events if event.name == "tool_result")
    citation = {
        "dataset_id": dataset["id"],
        "dataset_name": "Station policies",
        "document_id": document["id"],
        "document_name": "refunds.md",
    }
    assert "KNOW-5150" in result["output"] and result["citations"] == [citation]
    assert events[-1].data["tool_calls"][0]["citations"] == [citation]
