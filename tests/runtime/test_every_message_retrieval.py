"""Knowledge retrieval modes in the runtime: `agent_decided` retrieves only when the model calls
knowledge_search; `every_message` retrieves with the user's question before the first model call,
reports it as a `knowledge_retrieval` tool call with citations, and sends the model the passages."""

from __future__ import annotations

import httpx

from tests.fakes.upstream import FakeUpstream
from tests.runtime.run_requests import KNOWLEDGE_TOKEN, names, run_body, run_events

_KNOWLEDGE = {"dataset_ids": ["ds-1"], "top_k": 2, "score_threshold": 0.1}
_SERVICES = {"knowledge": {"token": KNOWLEDGE_TOKEN}}


def test_every_message_retrieves_the_question_before_the_model_call(
    client: httpx.Client, fake_upstream: FakeUpstream
) -> None:
    body = run_body(
        fake_upstream.base_url,
        "Where is the launch code?",
        services=_SERVICES,
        knowledge={**_KNOWLEDGE, "retrieval_mode": "every_message"},
    )
    events = run_events(client, body)
    (retrieve,) = fake_upstream.calls("/internal/knowledge/retrieve")
    assert retrieve.headers["authorization"] == f"Bearer {KNOWLEDGE_TOKEN}"
    assert retrieve.body == {
        "query": "Where is the launch code?",
        "dataset_ids": ["ds-1"],
        "top_k": 2,
        "score_threshold": 0.1,
    }
    assert names(events)[:3] == ["run.started", "tool.call", "tool.result"]
    call, result = events[1].data, events[2].data
    assert (call["name"], call["arguments"]) == (
        "knowledge_retrieval",
        {"query": "Where is the launch code?"},
    )
    assert (result["id"], result["name"], result["is_error"]) == (call["id"], "knowledge_retrieval", False)
    assert [citation["document_name"] for citation in result["citations"]] == ["handbook.md"]
    (model_call,) = fake_upstream.calls("/v1/chat")
    system = model_call.body["messages"][0]
    assert system["role"] == "system"
    assert system["content"] == (
        "You are a careful test agent.\n\n"
        "Knowledge retrieved for this message (answer from it, and cite the document you used):\n\n"
        f"{result['output']}"
    )
    assert "The answer to Where is the launch code? is KNOWLEDGE-TOKEN-7." in result["output"]
    assert "tools" not in model_call.body  # retrieval is not a tool the model is offered


def test_agent_decided_retrieves_nothing_unless_the_model_searches(
    client: httpx.Client, fake_upstream: FakeUpstream
) -> None:
    body = run_body(
        fake_upstream.base_url,
        "Where is the launch code?",
        services=_SERVICES,
        knowledge={**_KNOWLEDGE, "retrieval_mode": "agent_decided"},
    )
    events = run_events(client, body)
    assert fake_upstream.calls("/internal/knowledge/retrieve") == []
    assert "tool.call" not in names(events)
    (model_call,) = fake_upstream.calls("/v1/chat")
    assert model_call.body["messages"][0]["content"] == "You are a careful test agent."


def test_every_message_without_datasets_retrieves_nothing(
    client: httpx.Client, fake_upstream: FakeUpstream
) -> None:
    knowledge = {"dataset_ids": [], "retrieval_mode": "every_message"}
    events = run_events(
        client, run_body(fake_upstream.base_url, "hello", services=_SERVICES, knowledge=knowledge)
    )
    assert fake_upstream.calls("/internal/knowledge/retrieve") == []
    assert "tool.call" not in names(events)


def test_an_unknown_retrieval_mode_is_refused(client: httpx.Client, fake_upstream: FakeUpstream) -> None:
    body = run_body(fake_upstream.base_url, "hello", knowledge={"retrieval_mode": "always"})
    assert client.post("/runs", json=body).status_code == 422
