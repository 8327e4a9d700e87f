"""Limits on chat runs (docs/console.md, "Chat"): replies in progress at once per web app visitor,
per web app client address, per service API key and `user`, and per agent; what a client that
went away still holds; and the history budget of a run. The fake runtime (fake_runtime.py) holds
every run open until the test releases it, so runs stay in progress as long as a test needs."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from api_shortcuts import CHAT_MODEL, PROVIDER_KEY
from fake_runtime import Console, FakeRuntime, serve_console

from agent_builder.console.chat_runs.limits import Limit, RunLimits
from agent_builder.console.chat_runs.runtime_client import fit_history
from agent_builder.console.config import ConsoleConfig
from agent_builder.console.errors import ApiError
from support.replay.server import BackgroundServer
from tests.console_api_setup import activate_model, api_key, publish_agent, site_token
from tests.fakes.upstream import FakeUpstream
from tests.sse_events import read_events


@pytest.fixture
def served_runtime() -> Iterator[tuple[FakeRuntime, str]]:
    fake = FakeRuntime()
    with BackgroundServer(fake.app()) as server:
        yield fake, server.url
        fake.release.set()  # let any stream still open end, so the server can stop


@pytest.fixture
def runtime(served_runtime: tuple[FakeRuntime, str]) -> FakeRuntime:
    return served_runtime[0]


@pytest.fixture
def make_console(tmp_path: Path, served_runtime: tuple[FakeRuntime, str]) -> Iterator[Callable[..., Console]]:
    """Consoles wired to the fake runtime, with these settings."""
    url = served_runtime[1]
    with ExitStack() as stack:
        yield lambda **settings: serve_console(stack, tmp_path / "console.db", url, **settings)


def published(console: Console, provider: FakeUpstream) -> dict[str, Any]:
    return publish_agent(
        console.api, activate_model(console.api, "Fake", provider.base_url, CHAT_MODEL, PROVIDER_KEY)
    )


def eventually(check: Callable[[], bool], what: str, timeout_s: float = 5.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not check():
        assert time.monotonic() < deadline, f"not after {timeout_s}s: {what}"
        time.sleep(0.02)


def leave_after_start(client: httpx.Client, agent: dict[str, Any], **headers: str) -> str:
    """Ask in the web app, and drop the connection as soon as the reply has started (a visitor who
    closed the page); returns the reply's message id."""
    url = f"/chat/{site_token(agent)}/api/messages"
    with client.stream("POST", url, json={"query": "Hi"}, headers=headers) as response:
        assert response.status_code == 200, response.read()
        return str(next(read_events(response)).data["message_id"])


def web_app_ask(client: httpx.Client, agent: dict[str, Any], **headers: str) -> httpx.Response:
    """A question whose answer is not awaited: the status, and the body of a refusal."""
    url = f"/chat/{site_token(agent)}/api/messages"
    with client.stream("POST", url, json={"query": "One more"}, headers=headers) as response:
        if response.status_code != 200:
            response.read()
        return response


def assert_too_many(response: httpx.Response, message: str) -> None:
    assert response.status_code == 429, response.text
    assert response.headers["Retry-After"] == "5"
    assert response.json() == {"code": "too_many_runs", "message": message, "retry_after": 5}


def stored_count(console: Console) -> int:
    return int(console.db_rows("SELECT COUNT(*) FROM messages")[0][0])


def test_a_visitor_is_refused_a_third_reply_while_two_abandoned_ones_go_on(
    make_console: Callable[..., Console], runtime: FakeRuntime, fake_provider: FakeUpstream
) -> None:
    console = make_console()  # the default: 2 per visitor
    agent = published(console, fake_provider)
    for _ in range(2):  # the visitor closes the page each time: the replies go on
        leave_after_start(console.public, agent)
    assert runtime.open_streams == 2

    refused = web_app_ask(console.public, agent)
    assert_too_many(
        refused,
        "Too many replies at once: you already have 2 in progress. "
        "Wait for one to finish, then send your message again.",
    )
    assert (len(runtime.runs), stored_count(console)) == (2, 2)  # nothing sent, nothing stored

    with httpx.Client(base_url=console.url, headers={"Origin": console.url}) as another_visitor:
        assert leave_after_start(another_visitor, agent)
    runtime.release.set()
    eventually(lambda: stored_count(console) == 6, "the three replies stored")
    assert leave_after_start(console.public, agent)  # their end gave the slots back


def test_requests_without_a_cookie_are_limited_per_client_address(
    make_console: Callable[..., Console], runtime: FakeRuntime, fake_provider: FakeUpstream
) -> None:
    console = make_console(max_runs_per_client=3, trusted_proxies=("127.0.0.1",))
    agent = published(console, fake_provider)

    def cookieless(**headers: str) -> httpx.Response | str:
        with httpx.Client(base_url=console.url, headers={"Origin": console.url}) as client:
            if len(runtime.runs) < 3:
                return leave_after_start(client, agent, **headers)
            return web_app_ask(client, agent, **headers)

    for _ in range(3):  # a new visitor each time, who drops the connection at once
        cookieless()
    refused = cookieless()
    assert isinstance(refused, httpx.Response)
    assert_too_many(
        refused, "Too many replies at once from your network: 3 are in progress. Try again in a few seconds."
    )
    # Behind a trusted proxy the client is the forwarded address: another network is let in.
    elsewhere = cookieless(**{"X-Forwarded-For": "203.0.113.7"})
    assert isinstance(elsewhere, httpx.Response) and elsewhere.status_code == 200
    assert len(runtime.runs) == 4


def test_an_agent_at_its_limit_refuses_both_surfaces_but_not_the_preview_or_other_agents(
    make_console: Callable[..., Console], runtime: FakeRuntime, fake_provider: FakeUpstream
) -> None:
    console = make_console(max_runs_per_agent=4)
    agent = published(console, fake_provider)
    key = api_key(console.api, agent)

    def ask(user: str) -> httpx.Response:
        body = {"query": "Hi", "response_mode": "blocking", "user": user}
        return console.public.post("/v1/chat-messages", json=body, headers=key)

    with ThreadPoolExecutor(2) as pool:
        blocking = [pool.submit(ask, "user-1") for _ in range(2)]
        leave_after_start(console.public, agent)
        leave_after_start(console.public, agent)
        eventually(lambda: len(runtime.runs) == 4, "four runs in progress")

        assert_too_many(
            ask("user-1"),
            "Too many replies at once: this user already has 2 in progress. "
            "Wait for one to finish, then send again.",
        )
        agent_full = (
            "Too many conversations right now: this agent is already writing 4 replies. "
            "Try again in a few seconds."
        )
        assert_too_many(ask("user-2"), agent_full)
        with httpx.Client(base_url=console.url, headers={"Origin": console.url}) as another_visitor:
            assert_too_many(web_app_ask(another_visitor, agent), agent_full)
            assert len(runtime.runs) == 4

            preview = f"/console/api/agents/{agent['id']}/preview/messages"
            with console.api.stream("POST", preview, json={"query": "Hi"}) as response:
                assert response.status_code == 200  # the admin's preview is not counted
            other = publish_agent(console.api, agent["draft"]["config"]["model"], name="Other agent")
            assert leave_after_start(another_visitor, other)
        runtime.release.set()
        assert [future.result(timeout=10).status_code for future in blocking] == [200, 200]
    eventually(lambda: runtime.open_streams == 0, "every run ended")
    assert ask("user-2").status_code == 200


def test_a_blocking_client_that_leaves_cancels_its_run_and_frees_its_slot(
    make_console: Callable[..., Console], runtime: FakeRuntime, fake_provider: FakeUpstream
) -> None:
    console = make_console(max_runs_per_visitor=1)
    key = api_key(console.api, published(console, fake_provider))
    body = {"query": "Hi", "response_mode": "blocking", "user": "user-1"}
    with pytest.raises(httpx.ReadTimeout):
        console.public.post("/v1/chat-messages", json=body, headers=key, timeout=0.5)

    # Nobody is left to read the answer: the run is cancelled, not left holding the runtime.
    eventually(lambda: runtime.open_streams == 0, "the run's stream closed")
    eventually(lambda: stored_count(console) == 2, "the reply stored")
    assert console.db_rows("SELECT status FROM messages WHERE role = 'assistant'")[0][0] == "cancelled"
    runtime.release.set()
    again = console.public.post("/v1/chat-messages", json=body, headers=key)
    assert again.status_code == 200, again.text


def test_a_long_conversation_sends_the_newest_turns_within_the_history_budget(
    make_console: Callable[..., Console], runtime: FakeRuntime, fake_provider: FakeUpstream
) -> None:
    console = make_console()  # the default budget: 32,000 characters
    key = api_key(console.api, published(console, fake_provider))
    runtime.release.set()
    conversation: dict[str, str] = {}
    for turn in range(1, 16):
        reply = f"Reply {turn}: " + "x" * 5_000
        usage = {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
        runtime.after = [("run.completed", {"message": reply, "usage": usage})]
        body = {"query": f"Question {turn}", "response_mode": "blocking", "user": "u", **conversation}
        answer = console.public.post("/v1/chat-messages", json=body, headers=key)
        assert answer.status_code == 200, answer.text
        conversation = {"conversation_id": answer.json()["conversation_id"]}

    assert stored_count(console) == 30  # everything is stored; only the request is cut
    assert [message["content"] for message in runtime.runs[2]["history"]][::2] == ["Question 1", "Question 2"]
    last = runtime.runs[-1]
    history = last["history"]
    assert sum(len(message["content"]) for message in history) <= 32_000
    assert [m["content"] for m in history if m["role"] == "user"] == [f"Question {n}" for n in range(9, 15)]
    assert history[-1]["content"].startswith("Reply 14: ")
    assert last["query"] == "Question 15"


def test_the_history_budget_drops_whole_turns_oldest_first() -> None:
    history = [
        ("user", "q1"),
        ("assistant", "a1" * 10),
        ("user", "q2"),  # its reply failed: the question stays, alone
        ("user", "q3"),
        ("assistant", "a3"),
    ]
    assert fit_history(history, 1_000) == history
    assert fit_history(history, 6) == history[2:]
    assert fit_history(history, 5) == history[3:]
    assert fit_history(history, 3) == []  # the newest turn alone is over the budget
    assert fit_history([], 0) == []
    assert fit_history([("assistant", "hello")], 5) == [("assistant", "hello")]


def test_a_run_that_ends_frees_its_own_slot_and_the_others_still_count(tmp_path: Path) -> None:
    slots = RunLimits(ConsoleConfig(db_path=tmp_path / "console.db"))
    visitor = [Limit("visitor:a", 2, "Too many replies at once.")]
    first, second = slots.take(visitor), slots.take(visitor)
    with pytest.raises(ApiError, match="Too many replies at once"):
        slots.take(visitor)

    slots.give_back(first)
    third = slots.take(visitor)  # the slot the first run held
    with pytest.raises(ApiError):
        slots.take(visitor)  # the second and third are still going

    slots.give_back(second)
    slots.give_back(third)
    assert slots.take(visitor).keys == ("visitor:a",)
