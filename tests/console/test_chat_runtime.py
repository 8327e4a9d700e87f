"""Chat through the real agent runtime: a console process wired to the runtime, shellctl, the
reference model and the fake upstream (tests/chat_stack.py). Each test publishes its own agent."""

from __future__ import annotations

import time
from typing import Any

import httpx

from tests.chat_stack import ChatStack
from tests.console_api_setup import api_key, indexed_document, publish_agent, site_token
from tests.fakes.upstream import MODEL, FakeUpstream, Stall, Status, Text
from tests.sse_events import Event, read_events


def ask(public_client: httpx.Client, headers: dict[str, str], query: str, **fields: Any) -> httpx.Response:
    body = {"query": query, "response_mode": "blocking", "user": "user-1", **fields}
    return public_client.post("/v1/chat-messages", headers=headers, json=body)


def stream_answer(
    public_client: httpx.Client, headers: dict[str, str], query: str, **fields: Any
) -> list[Event]:
    body = {"query": query, "response_mode": "streaming", "user": "user-1", **fields}
    with public_client.stream("POST", "/v1/chat-messages", headers=headers, json=body) as response:
        assert response.status_code == 200, response.read()
        assert response.headers["content-type"].startswith("text/event-stream")
        return list(read_events(response))


def messages(
    public_client: httpx.Client, headers: dict[str, str], conversation_id: str, user: str = "user-1"
) -> list[dict[str, Any]]:
    response = public_client.get(
        f"/v1/conversations/{conversation_id}/messages", headers=headers, params={"user": user}
    )
    assert response.status_code == 200, response.text
    return response.json()["data"]


def assert_error(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.json()["code"] == code, response.json()
    return response.json()


def test_blocking_answer_is_the_models_reply(chat_stack: ChatStack, public_client: httpx.Client) -> None:
    agent = publish_agent(chat_stack.api, chat_stack.reference_model)
    headers = api_key(chat_stack.api, agent)
    response = ask(public_client, headers, "Reply with exactly: MARKER-7Q")
    assert response.status_code == 200, response.text
    answer = response.json()
    assert (answer["answer"], answer["status"], answer["tool_calls"]) == ("MARKER-7Q", "completed", [])
    usage = answer["usage"]
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"] > 0

    stored = messages(public_client, headers, answer["conversation_id"])
    assert [(m["role"], m["content"], m["status"]) for m in stored] == [
        ("user", "Reply with exactly: MARKER-7Q", "completed"),
        ("assistant", "MARKER-7Q", "completed"),
    ]
    assert stored[1]["id"] == answer["message_id"]
    assert (stored[1]["usage"], stored[1]["agent_version"], stored[1]["retries"]) == (usage, 1, 0)
    keys = chat_stack.api.get(f"/console/api/agents/{agent['id']}/api-keys").json()["data"]
    assert keys[0]["last_used_at"] is not None


def test_streaming_sends_the_answer_in_pieces_then_message_end(
    chat_stack: ChatStack, public_client: httpx.Client
) -> None:
    headers = api_key(chat_stack.api, publish_agent(chat_stack.api, chat_stack.reference_model))
    events = stream_answer(public_client, headers, "reply with exactly: one two three four five six seven")
    names = [event.name for event in events]
    assert names[-1] == "message_end" and set(names[:-1]) == {"message"} and len(names) >= 3, names
    assert "".join(event.data["answer"] for event in events[:-1]) == "one two three four five six seven"
    end = events[-1].data
    assert set(end) == {"conversation_id", "message_id", "usage", "moderated", "outputs"}
    assert end["moderated"] is None and end["outputs"] is None  # an agent without output variables
    assert set(end["usage"]) == {"prompt_tokens", "completion_tokens", "total_tokens"}
    assert messages(public_client, headers, end["conversation_id"])[-1]["id"] == end["message_id"]


def test_a_conversation_continues_with_its_history(
    chat_stack: ChatStack, fake_upstream: FakeUpstream, public_client: httpx.Client
) -> None:
    agent = publish_agent(chat_stack.api, chat_stack.scripted_model, instructions="Be brief.")
    headers = api_key(chat_stack.api, agent)
    fake_upstream.reply(Text("Paris is the capital."), Text("About two million."))
    first = ask(public_client, headers, "What is the capital of France?").json()
    second = ask(
        public_client, headers, "How many people live there?", conversation_id=first["conversation_id"]
    )
    assert second.json()["conversation_id"] == first["conversation_id"]
    sent = fake_upstream.calls("/v1/chat")[1].body["messages"]
    assert [(m["role"], m["content"]) for m in sent] == [
        ("system", "Be brief."),
        ("user", "What is the capital of France?"),
        ("assistant", "Paris is the capital. "),
        ("user", "How many people live there?"),
    ]
    assert len(messages(public_client, headers, first["conversation_id"])) == 4

    # Conversations belong to one agent, and to one surface.
    other_headers = api_key(chat_stack.api, publish_agent(chat_stack.api, chat_stack.scripted_model))
    conversation = {"conversation_id": first["conversation_id"]}
    assert_error(ask(public_client, other_headers, "Hi", **conversation), 404, "not_found")
    web_app = public_client.post(
        f"/chat/{site_token(agent)}/api/messages", json={"query": "Hi", **conversation}
    )
    assert_error(web_app, 404, "not_found")
    assert_error(
        public_client.get(
            f"/v1/conversations/{first['conversation_id']}/messages",
            headers=other_headers,
            params={"user": "user-1"},
        ),
        404,
        "not_found",
    )
    assert len(fake_upstream.calls("/v1/chat")) == 2


def test_sandbox_command_output_reaches_the_answer_and_the_tool_events(
    chat_stack: ChatStack, public_client: httpx.Client
) -> None:
    agent = publish_agent(
        chat_stack.api, chat_stack.reference_model, tools=[{"name": "sandbox_shell", "enabled": True}]
    )
    headers = api_key(chat_stack.api, agent)
    events = stream_answer(public_client, headers, "Please run the command `echo sandbox-$((6*7))`")
    names = [event.name for event in events]
    assert names[:2] == ["tool_call", "tool_result"] and names[-1] == "message_end", names
    call, result = events[0].data, events[1].data
    assert (call["name"], call["arguments"]) == ("sandbox_shell", {"command": "echo sandbox-$((6*7))"})
    assert result == {
        "id": call["id"],
        "name": "sandbox_shell",
        "output": "sandbox-42\n",
        "is_error": False,
        "citations": [],
    }
    answer = "".join(event.data["answer"] for event in events if event.name == "message")
    assert answer == "Tool sandbox_shell returned: sandbox-42"
    reply = messages(public_client, headers, events[-1].data["conversation_id"])[-1]
    assert reply["content"] == answer
    assert reply["tool_calls"] == [{**call, "output": "sandbox-42\n", "is_error": False, "citations": []}]


def test_deleting_the_agent_removes_its_sandbox_workspaces(
    chat_stack: ChatStack, public_client: httpx.Client
) -> None:
    agent = publish_agent(
        chat_stack.api, chat_stack.reference_model, tools=[{"name": "sandbox_shell", "enabled": True}]
    )
    headers = api_key(chat_stack.api, agent)
    conversations = [
        ask(public_client, headers, f"Please run the command `echo {n} > proof.txt`").json()[
            "conversation_id"
        ]
        for n in (1, 2)
    ]
    file = {"path": "proof.txt", "owner": agent["id"]}
    for n, conversation in enumerate(conversations, start=1):
        written = chat_stack.shellctl.get(f"/sessions/{conversation}/files", params=file)
        assert (written.status_code, written.text) == (200, f"{n}\n")

    assert chat_stack.api.delete(f"/console/api/agents/{agent['id']}").status_code == 204
    for conversation in conversations:
        gone = chat_stack.shellctl.get(f"/sessions/{conversation}/files", params=file)
        assert_error(gone, 404, "file_not_found")


def test_knowledge_search_reads_the_agents_datasets_through_the_console(
    chat_stack: ChatStack, public_client: httpx.Client
) -> None:
    content = b"Refunds: the refund token is KNOW-7731.\n\nShipping takes three days."
    dataset, _ = indexed_document(chat_stack.api, "Policies", "policy.md", content)
    agent = publish_agent(
        chat_stack.api,
        chat_stack.reference_model,
        tools=[{"name": "knowledge_search", "enabled": True}],
        knowledge={"dataset_ids": [dataset["id"]], "top_k": 2, "score_threshold": None},
    )
    answer = ask(
        public_client, api_key(chat_stack.api, agent), "Search the knowledge base for the refund token"
    ).json()
    assert answer["tool_calls"][0]["name"] == "knowledge_search"
    assert "KNOW-7731" in answer["tool_calls"][0]["output"] and "KNOW-7731" in answer["answer"]


def test_provider_failures_are_failed_replies_and_retries_are_recorded(
    chat_stack: ChatStack, fake_upstream: FakeUpstream, public_client: httpx.Client
) -> None:
    agent = publish_agent(chat_stack.api, chat_stack.scripted_model)
    headers = api_key(chat_stack.api, agent)
    fake_upstream.reply(Status(401, "Incorrect API key provided"))
    failed = assert_error(ask(public_client, headers, "Hello?"), 502, "provider_auth_failed")
    assert failed["message"] == "The model provider refused the request (401)."

    fake_upstream.reply(Status(401, "Incorrect API key provided"))
    with public_client.stream(
        "POST", f"/chat/{site_token(agent)}/api/messages", json={"query": "Hi?"}
    ) as response:
        events = list(read_events(response))
    assert [event.name for event in events] == ["message_start", "message_end"]
    reply = events[-1].data
    assert (reply["status"], reply["content"], reply["error"]) == ("failed", "", failed)

    fake_upstream.reply(Status(500), Text("Recovered."))
    recovered = ask(public_client, headers, "Again?")
    assert recovered.status_code == 200, recovered.text
    stored = messages(public_client, headers, recovered.json()["conversation_id"])[-1]
    assert (stored["content"], stored["status"], stored["retries"]) == ("Recovered. ", "completed", 1)


def test_stop_keeps_the_partial_reply_as_cancelled(
    chat_stack: ChatStack, fake_upstream: FakeUpstream, public_client: httpx.Client
) -> None:
    agent = publish_agent(chat_stack.api, chat_stack.scripted_model)
    api = f"/chat/{site_token(agent)}/api"
    fake_upstream.reply(Stall("Once upon a time"))
    with public_client.stream("POST", f"{api}/messages", json={"query": "Tell me a story"}) as response:
        events = read_events(response)
        start = next(events)
        assert start.name == "message_start"
        text = ""
        while text != "Once upon a time ":
            delta = next(events)
            assert delta.name == "message_delta", delta
            text += delta.data["text"]
        stopped = public_client.post(f"{api}/messages/{start.data['message_id']}/stop")
        rest = list(events)
    assert stopped.status_code == 200, stopped.text
    reply = stopped.json()
    assert (reply["id"], reply["status"], reply["content"]) == (start.data["message_id"], "cancelled", text)
    assert [(event.name, event.data) for event in rest] == [("message_end", reply)]
    assert fake_upstream.disconnected.wait(5), "the runtime did not abandon the model call"

    conversation = public_client.get(f"{api}/conversations/{start.data['conversation_id']}/messages").json()[
        "data"
    ]
    assert [(m["role"], m["status"]) for m in conversation] == [
        ("user", "completed"),
        ("assistant", "cancelled"),
    ]
    assert (
        public_client.post(f"{api}/messages/{reply['id']}/stop").json() == reply
    )  # already ended: the stored reply
    assert_error(public_client.post(f"{api}/messages/nope/stop"), 404, "not_found")

    # A stopped reply is not part of the history the model sees next.
    fake_upstream.reply(Text("The end."))
    with public_client.stream(
        "POST", f"{api}/messages", json={"query": "Go on", "conversation_id": start.data["conversation_id"]}
    ) as response:
        assert [event.name for event in read_events(response)][-1] == "message_end"
    sent = fake_upstream.calls("/v1/chat")[-1].body["messages"]
    assert [m["role"] for m in sent] == ["system", "user", "user"]


def test_closing_a_streaming_answer_cancels_the_run(
    chat_stack: ChatStack, fake_upstream: FakeUpstream, public_client: httpx.Client
) -> None:
    headers = api_key(chat_stack.api, publish_agent(chat_stack.api, chat_stack.scripted_model))
    fake_upstream.reply(Text("Hello."), Stall("Partial"))
    conversation_id = ask(public_client, headers, "Hi").json()["conversation_id"]
    body = {
        "query": "More",
        "response_mode": "streaming",
        "user": "user-1",
        "conversation_id": conversation_id,
    }
    with public_client.stream("POST", "/v1/chat-messages", headers=headers, json=body) as response:
        assert next(read_events(response)) == Event("message", {"answer": "Partial "})
    assert fake_upstream.disconnected.wait(5), "the run went on after the client left"
    deadline = time.monotonic() + 5
    while len(stored := messages(public_client, headers, conversation_id)) < 4:
        assert time.monotonic() < deadline, stored
        time.sleep(0.05)
    assert (stored[-1]["status"], stored[-1]["content"]) == ("cancelled", "Partial ")


def test_switched_off_surfaces_refuse_before_any_run(
    chat_stack: ChatStack, fake_upstream: FakeUpstream, public_client: httpx.Client
) -> None:
    agent = publish_agent(chat_stack.api, chat_stack.scripted_model)
    headers = api_key(chat_stack.api, agent)
    access = f"/console/api/agents/{agent['id']}/access"
    chat_stack.api.patch(
        access, json={"service_api_enabled": False, "web_app_enabled": False}
    ).raise_for_status()
    assert_error(ask(public_client, headers, "Hi"), 403, "service_api_disabled")
    assert_error(
        public_client.get("/v1/conversations/any/messages", headers=headers), 403, "service_api_disabled"
    )
    api = f"/chat/{site_token(agent)}/api"
    for response in (
        public_client.post(f"{api}/messages", json={"query": "Hi"}),
        public_client.post(f"{api}/messages/any/stop"),
        public_client.get(f"{api}/conversations/any/messages"),
    ):
        assert_error(response, 403, "web_app_disabled")
    assert fake_upstream.calls("/v1/chat") == []

    chat_stack.api.patch(access, json={"service_api_enabled": True}).raise_for_status()
    fake_upstream.reply(Text("Back again."))
    assert ask(public_client, headers, "Hi").json()["answer"] == "Back again. "


def test_an_inactive_model_is_409_model_unavailable(
    chat_stack: ChatStack, public_client: httpx.Client
) -> None:
    agent = publish_agent(chat_stack.api, chat_stack.scripted_model)
    provider_id = chat_stack.scripted_model["provider_id"]
    model = chat_stack.api.get(f"/console/api/model-providers/{provider_id}").json()["models"][0]
    model_url = f"/console/api/model-providers/{provider_id}/models/{model['id']}"
    chat_stack.api.patch(model_url, json={"active": False}).raise_for_status()
    try:
        body = assert_error(
            ask(public_client, api_key(chat_stack.api, agent), "Hi"), 409, "model_unavailable"
        )
        assert f"'{MODEL}' is not available" in body["message"]
    finally:
        chat_stack.api.patch(model_url, json={"active": True}).raise_for_status()
