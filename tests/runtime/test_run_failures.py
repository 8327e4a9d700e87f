"""The runtime as a real process against the scripted provider (tests/fakes/upstream.py): retries,
provider errors, the tool loop's bound, cancellation and disconnects."""

from __future__ import annotations

import time
from collections.abc import Callable

import httpx

from support.stack import Service
from tests.fakes.upstream import CallTool, FakeUpstream, Stall, Status, Text
from tests.runtime.conftest import AUTHORIZED
from tests.runtime.run_requests import MODEL_KEY, names, run_body, run_events
from tests.sse_events import read_events


def _wait_until(condition: Callable[[], bool], timeout_s: float = 5) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "condition not reached in time"
        time.sleep(0.02)


def test_500_then_success_is_retried_once(client: httpx.Client, fake_upstream: FakeUpstream) -> None:
    fake_upstream.reply(Status(500), Text("recovered answer"))
    events = run_events(client, run_body(fake_upstream.base_url, "hi"))
    assert names(events)[:2] == ["run.started", "retry"]
    assert events[1].data == {"attempt": 1, "status": 500, "delay_ms": 10}
    assert names(events).count("retry") == 1
    assert events[-1].name == "run.completed"
    assert events[-1].data["message"] == "recovered answer "
    assert len(fake_upstream.calls("/v1/chat")) == 2


def test_401_fails_without_retry_and_hides_the_key(client: httpx.Client, fake_upstream: FakeUpstream) -> None:
    fake_upstream.reply(Status(401, f"Incorrect API key provided: {MODEL_KEY}"))
    events = run_events(client, run_body(fake_upstream.base_url, "hi"))
    assert names(events) == ["run.started", "run.failed"]
    failed = events[-1].data
    assert (failed["code"], failed["status"]) == ("provider_auth_failed", 401)
    assert "Incorrect API key provided" in failed["message"] and MODEL_KEY not in failed["message"]
    assert len(fake_upstream.calls("/v1/chat")) == 1


def test_400_is_a_provider_error(client: httpx.Client, fake_upstream: FakeUpstream) -> None:
    fake_upstream.reply(Status(400, "max_tokens is too large"))
    events = run_events(client, run_body(fake_upstream.base_url, "hi"))
    assert names(events) == ["run.started", "run.failed"]
    assert events[-1].data["code"] == "provider_error"
    assert "max_tokens is too large" in events[-1].data["message"]


def test_exhausted_budget_is_provider_unavailable(client: httpx.Client, fake_upstream: FakeUpstream) -> None:
    fake_upstream.reply(Status(503), Status(429), Status(502))
    events = run_events(client, run_body(fake_upstream.base_url, "hi"))
    assert names(events) == ["run.started", "retry", "retry", "run.failed"]
    assert [event.data["delay_ms"] for event in events[1:3]] == [10, 20]
    assert events[-1].data["code"] == "provider_unavailable"
    assert events[-1].data["status"] == 502


def test_unreachable_provider_is_retried_then_unavailable(client: httpx.Client) -> None:
    events = run_events(client, run_body("http://127.0.0.1:9/v1", "hi"))
    assert names(events) == ["run.started", "retry", "retry", "run.failed"]
    assert "error" in events[1].data and "status" not in events[1].data
    assert events[-1].data["code"] == "provider_unavailable"


def test_tool_loop_is_bounded(client: httpx.Client, fake_upstream: FakeUpstream) -> None:
    fake_upstream.reply(*[CallTool("json_replace", {"json": "{}", "path": "a", "value": "1"})] * 7)
    events = run_events(client, run_body(fake_upstream.base_url, "loop", tools=("json_replace",)))
    assert names(events).count("tool.result") == 6
    assert events[-1].name == "run.failed" and events[-1].data["code"] == "tool_loop_limit"


def test_cancel_ends_a_stalled_run_promptly(
    client: httpx.Client, runtime: Service, fake_upstream: FakeUpstream
) -> None:
    fake_upstream.reply(Stall("partial words"))
    body = run_body(fake_upstream.base_url, "hi")
    with client.stream("POST", "/runs", json=body) as response:
        events = read_events(response)
        assert [next(events).name for _ in range(3)] == ["run.started", "message.delta", "message.delta"]
        started = time.monotonic()
        cancel = httpx.post(f"{runtime.url}/runs/{body['run_id']}/cancel", headers=AUTHORIZED)
        assert cancel.status_code == 202
        assert cancel.json() == {"run_id": body["run_id"], "status": "cancelling"}
        rest = list(events)
    assert time.monotonic() - started < 2
    assert [event.name for event in rest] == ["run.cancelled"]
    assert rest[0].data == {"partial_message": "partial words "}
    assert fake_upstream.disconnected.wait(5), "the provider stream was not abandoned"
    assert (
        httpx.post(f"{runtime.url}/runs/{body['run_id']}/cancel", headers=AUTHORIZED).json()["code"]
        == "run_not_found"
    )


def test_client_disconnect_cancels_the_run(runtime: Service, fake_upstream: FakeUpstream) -> None:
    fake_upstream.reply(Stall())
    body = run_body(fake_upstream.base_url, "hi")
    with (
        httpx.Client(base_url=runtime.url, headers=AUTHORIZED, timeout=30) as own,
        own.stream("POST", "/runs", json=body) as response,
    ):
        events = read_events(response)
        assert next(events).name == "run.started"
        _wait_until(lambda: bool(fake_upstream.calls("/v1/chat")))  # the stall is parked upstream
    assert fake_upstream.disconnected.wait(5), "the provider stream was not abandoned"
    _wait_until(
        lambda: (
            httpx.post(f"{runtime.url}/runs/{body['run_id']}/cancel", headers=AUTHORIZED).status_code == 404
        )
    )


def test_duplicate_active_run_id_is_409(
    client: httpx.Client, runtime: Service, fake_upstream: FakeUpstream
) -> None:
    fake_upstream.reply(Stall())
    body = run_body(fake_upstream.base_url, "hi")
    with client.stream("POST", "/runs", json=body) as response:
        events = read_events(response)  # kept: dropping the iterator closes the connection
        assert next(events).name == "run.started"
        duplicate = httpx.post(f"{runtime.url}/runs", json=body, headers=AUTHORIZED)
        assert duplicate.status_code == 409 and duplicate.json()["code"] == "run_exists"
        httpx.post(f"{runtime.url}/runs/{body['run_id']}/cancel", headers=AUTHORIZED)
