"""The runtime as a real process: runs against the reference model and a real shellctl, what it
sends the model, its tools, request validation, its log and concurrent runs. Failures and
cancellation: test_run_failures.py."""

from __future__ import annotations

import json
import threading
import time

import httpx
import pytest

from support.stack import Service
from tests.fakes.upstream import FakeUpstream, Status
from tests.runtime.conftest import SHELL_TIMEOUT_S, SHELLCTL_TOKEN
from tests.runtime.run_requests import (
    KNOWLEDGE_TOKEN,
    MODEL_KEY,
    SEARCH_KEY,
    message_text,
    names,
    run_body,
    run_events,
)


def test_probes(client: httpx.Client) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    assert "/runs" in client.get("/openapi.json").json()["paths"]


def test_reply_streams_in_several_deltas(client: httpx.Client, reference_model_url: str) -> None:
    body = run_body(reference_model_url, "reply with exactly: The quick brown fox jumps over the lazy dog")
    events = run_events(client, body)
    assert names(events)[0] == "run.started" and events[0].data == {"run_id": body["run_id"]}
    assert names(events)[-1] == "run.completed"
    assert names(events).count("message.delta") >= 3
    assert message_text(events) == "The quick brown fox jumps over the lazy dog"
    completed = events[-1].data
    assert completed["message"] == "The quick brown fox jumps over the lazy dog"
    usage = completed["usage"]
    assert usage["prompt_tokens"] > 0 and usage["completion_tokens"] == 9
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]


def test_history_reaches_the_model(client: httpx.Client, fake_upstream: FakeUpstream) -> None:
    history = [{"role": "user", "content": "first"}, {"role": "assistant", "content": "You said: first"}]
    run_events(client, run_body(fake_upstream.base_url, "second", history=history, tools=("json_replace",)))
    (call,) = fake_upstream.calls("/v1/chat")
    messages = call.body["messages"]
    assert messages[0]["role"] == "system" and messages[0]["content"].startswith(
        "You are a careful test agent."
    )
    assert messages[1:] == [*history, {"role": "user", "content": "second"}]
    assert call.body["stream"] is True and call.body["stream_options"] == {"include_usage": True}
    assert (call.body["temperature"], call.body["max_tokens"], call.body["model"]) == (
        0.2,
        256,
        "gpt-4o-mini",
    )
    assert [tool["function"]["name"] for tool in call.body["tools"]] == ["json_replace"]
    assert call.headers["x-model-caller"] == "agent"
    assert call.headers["authorization"] == f"Bearer {MODEL_KEY}"


def test_disabled_tools_are_not_offered(client: httpx.Client, fake_upstream: FakeUpstream) -> None:
    body = run_body(fake_upstream.base_url, "hi")
    body["agent"]["tools"] = [{"name": "sandbox_shell", "enabled": False}]
    run_events(client, body)
    assert "tools" not in fake_upstream.calls("/v1/chat")[0].body


def test_sandbox_shell_round_trip(client: httpx.Client, reference_model_url: str) -> None:
    body = run_body(
        reference_model_url,
        "Please run the command `echo sandbox-$((6*7))`.",
        tools=("sandbox_shell",),
    )
    events = run_events(client, body)
    assert names(events) == [
        "run.started",
        "tool.call",
        "tool.result",
        *["message.delta"] * 2,
        "run.completed",
    ]
    call, result = events[1].data, events[2].data
    assert (call["name"], call["arguments"]) == ("sandbox_shell", {"command": "echo sandbox-$((6*7))"})
    assert result == {
        "id": call["id"],
        "name": "sandbox_shell",
        "output": "sandbox-42\n",
        "is_error": False,
        "citations": [],
    }
    assert events[-1].data["message"] == "Tool sandbox_shell returned: sandbox-42"


def test_a_secret_variable_is_set_for_commands_and_hidden_in_what_they_print(
    client: httpx.Client, reference_model_url: str
) -> None:
    secret = "tok-e2e-secret-0123456789"
    body = run_body(
        reference_model_url,
        "Please run the command `echo token=$API_TOKEN length=${#API_TOKEN} region=$REGION`.",
        tools=("sandbox_shell",),
        env={"REGION": "eu-west"},
        secret_env={"API_TOKEN": secret},
    )
    events = run_events(client, body)
    [result] = [event.data for event in events if event.name == "tool.result"]
    assert result["output"] == f"token=[secret API_TOKEN] length={len(secret)} region=eu-west\n"
    assert all(secret not in str(event.data) for event in events)


def test_sandbox_shell_sends_the_token_and_the_workspace_owner(
    client: httpx.Client, reference_model_url: str, shellctl_url: str
) -> None:
    body = run_body(
        reference_model_url,
        "Please run the command `echo kept > proof.txt`.",
        tools=("sandbox_shell",),
        services={"shellctl_owner": "agent-7"},
    )
    result = next(event.data for event in run_events(client, body) if event.name == "tool.result")
    assert result["is_error"] is False, result  # shellctl answers 401 to a runtime without the token
    files = f"{shellctl_url}/sessions/{body['conversation_id']}/files"
    headers = {"Authorization": f"Bearer {SHELLCTL_TOKEN}"}
    owned = httpx.get(files, params={"path": "proof.txt", "owner": "agent-7"}, headers=headers)
    assert (owned.status_code, owned.content) == (200, b"kept\n")
    assert httpx.get(files, params={"path": "proof.txt"}, headers=headers).status_code == 404  # not unowned


def test_the_agents_plain_variables_reach_the_sandbox_command(
    client: httpx.Client, reference_model_url: str
) -> None:
    body = run_body(
        reference_model_url,
        "run the command `echo $REGION-$HOME_REGION`",
        tools=("sandbox_shell",),
    )
    body["agent"]["env"] = {"REGION": "eu", "HOME_REGION": "west"}
    result = next(event.data for event in run_events(client, body) if event.name == "tool.result")
    assert result["output"] == "eu-west\n"


def test_sandbox_timeout_is_a_tool_error(client: httpx.Client, reference_model_url: str) -> None:
    body = run_body(
        reference_model_url,
        "run the command `sleep 20`",
        tools=("sandbox_shell",),
    )
    started = time.monotonic()
    events = run_events(client, body)
    assert time.monotonic() - started < SHELL_TIMEOUT_S + 5
    result = next(event.data for event in events if event.name == "tool.result")
    assert result["is_error"] is True
    assert result["output"] == f"Command timed out after {SHELL_TIMEOUT_S}s"
    assert (
        events[-1].data["message"]
        == f"Tool sandbox_shell returned: Command timed out after {SHELL_TIMEOUT_S}s"
    )


def test_json_replace(client: httpx.Client, reference_model_url: str) -> None:
    query = 'set settings.limits[1] to 99 in this JSON: {"settings": {"limits": [1, 2, 3]}}'
    events = run_events(client, run_body(reference_model_url, query, tools=("json_replace",)))
    result = next(event.data for event in events if event.name == "tool.result")
    assert result["is_error"] is False
    assert json.loads(result["output"]) == {"settings": {"limits": [1, 99, 3]}}
    assert events[-1].data["message"] == 'Tool json_replace returned: {"settings": {"limits": [1, 99, 3]}}'


def test_knowledge_search_calls_the_retrieve_endpoint(
    client: httpx.Client, reference_model_url: str, fake_upstream: FakeUpstream
) -> None:
    body = run_body(
        reference_model_url,
        "search the knowledge base for the launch code",
        tools=("knowledge_search",),
        services={"knowledge": {"token": KNOWLEDGE_TOKEN}},
        knowledge={"dataset_ids": ["ds-1"], "top_k": 2, "score_threshold": 0.1},
    )
    events = run_events(client, body)
    # At AGENT_BUILDER_RUNTIME_CONSOLE_URL (the fake's root), the console's retrieval route.
    (retrieve,) = fake_upstream.calls("/internal/knowledge/retrieve")
    assert retrieve.headers["authorization"] == f"Bearer {KNOWLEDGE_TOKEN}"
    assert retrieve.body == {
        "query": "the launch code",
        "dataset_ids": ["ds-1"],
        "top_k": 2,
        "score_threshold": 0.1,
    }
    assert "KNOWLEDGE-TOKEN-7" in events[-1].data["message"]
    result = next(event.data for event in events if event.name == "tool.result")
    # The passage's source travels with the result, so a reply can cite it.
    assert result["citations"] == [
        {
            "dataset_id": "ds-1",
            "dataset_name": "Station handbook",
            "document_id": "d1",
            "document_name": "handbook.md",
        }
    ]


def test_web_search_calls_the_provider(client: httpx.Client, reference_model_url: str) -> None:
    body = run_body(
        reference_model_url,
        "search the web for agent builders",
        tools=("web_search",),
        services={"web_search": {"base_url": reference_model_url, "api_key": SEARCH_KEY}},
    )
    events = run_events(client, body)
    result = next(event.data for event in events if event.name == "tool.result")
    assert result["is_error"] is False
    assert result["output"].startswith("agent builders (1) — https://example.com/search/1\n")
    assert events[-1].data["message"].startswith("Tool web_search returned: agent builders (1)")


@pytest.mark.parametrize(
    "change",
    [
        lambda body: body.pop("query"),
        lambda body: body.update(conversation_id="has spaces"),
        lambda body: body["agent"]["model"].update(base_url="ftp://nope"),
        lambda body: body["agent"]["tools"].append({"name": "rm_rf", "enabled": True}),
        lambda body: body["agent"]["parameters"].update(temperature=3),
    ],
)
def test_invalid_requests_are_422_without_echoing_input(client: httpx.Client, change: object) -> None:
    body = run_body("http://127.0.0.1:1/v1", "hi")
    change(body)  # type: ignore[operator]
    response = client.post("/runs", json=body)
    assert response.status_code == 422
    assert response.json()["code"] == "invalid_request" and response.json()["message"]
    assert MODEL_KEY not in response.text


def test_cancel_unknown_run_is_404(client: httpx.Client) -> None:
    response = client.post("/runs/nope/cancel")
    assert response.status_code == 404 and response.json()["code"] == "run_not_found"


def test_secrets_never_reach_the_log(
    client: httpx.Client,
    runtime: Service,
    reference_model_url: str,
    fake_upstream: FakeUpstream,
) -> None:
    fake_upstream.reply(Status(401, f"bad key {MODEL_KEY}"))
    run_events(client, run_body(fake_upstream.base_url, "hi"))
    body = run_body(
        reference_model_url,
        "search the web for secrets",
        tools=("web_search", "knowledge_search"),
        services={
            "web_search": {"base_url": reference_model_url, "api_key": SEARCH_KEY},
            "knowledge": {"token": KNOWLEDGE_TOKEN},
        },
    )
    assert run_events(client, body)[-1].name == "run.completed"
    log = runtime.log_path.read_text()
    assert f"run {body['run_id']}: run.completed" in log
    for secret in (MODEL_KEY, KNOWLEDGE_TOKEN, SEARCH_KEY):
        assert secret not in log


def test_concurrent_runs_are_independent(client: httpx.Client, reference_model_url: str) -> None:
    results: dict[int, str] = {}

    def run(number: int) -> None:
        events = run_events(client, run_body(reference_model_url, f"reply with exactly: answer {number}"))
        results[number] = events[-1].data["message"]

    threads = [threading.Thread(target=run, args=(number,)) for number in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == {number: f"answer {number}" for number in range(4)}
