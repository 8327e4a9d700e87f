"""What the console sends the runtime, and how it copes when the runtime misbehaves. A fake
runtime in this process records each run request and streams what the test scripts; the
console runs in this process too, on a real socket, so the fake can call it back like the
runtime does (knowledge retrieval with the run's token); both in fake_runtime.py."""

from __future__ import annotations

import socket
import sqlite3
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, closing
from pathlib import Path
from typing import Any

import httpx
import pytest
from api_shortcuts import CHAT_MODEL, PROVIDER_KEY
from fake_runtime import RUNTIME_TOKEN, Console, FakeRuntime, serve_console

from agent_builder.console.app import create_app
from agent_builder.console.chat_runs import runs as chat_runs
from agent_builder.console.config import ConsoleConfig
from agent_builder.settings import ConfigError
from support.replay.server import BackgroundServer
from tests.console_api_setup import activate_model, indexed_document, publish_agent, site_token
from tests.fakes.upstream import FakeUpstream
from tests.sse_events import Event, read_events


@pytest.fixture
def runtime() -> Iterator[tuple[FakeRuntime, str]]:
    fake = FakeRuntime()
    with BackgroundServer(fake.app()) as server:
        yield fake, server.url
        fake.release.set()  # let any stream still open end, so the server can stop


@pytest.fixture
def make_console(tmp_path: Path) -> Iterator[Callable[[str], Console]]:
    """Consoles on one database, served on real sockets, wired to the given runtime URL."""
    with ExitStack() as stack:
        yield lambda runtime_url: serve_console(stack, tmp_path / "console.db", runtime_url)


def model_of(console: Console, provider: FakeUpstream) -> dict[str, str]:
    return activate_model(console.api, "Fake", provider.base_url, CHAT_MODEL, PROVIDER_KEY)


def indexed_dataset(console: Console, name: str, text: str) -> str:
    return str(indexed_document(console.api, name, "doc.md", text.encode())[0]["id"])


def web_app_events(console: Console, agent: dict[str, Any], query: str) -> list[Event]:
    url = f"/chat/{site_token(agent)}/api/messages"
    with console.public.stream("POST", url, json={"query": query}) as response:
        assert response.status_code == 200, response.read()
        return list(read_events(response))


SEARCH = {
    "tool": "web_search",
    "name": "Search",
    "secret": "ws-secret-1",
    "base_url": "http://search.test/v1",
}
TOOLS = [
    {"name": "knowledge_search", "enabled": True},
    {"name": "web_search", "enabled": True},
    {"name": "sandbox_shell", "enabled": False},
]
PARAMETERS = {"temperature": 0.3, "max_tokens": 200}
AGENT_DECIDED = {"retrieval_mode": "agent_decided"}  # the default: the model calls knowledge_search


def published_with_a_newer_draft(console: Console, model: dict[str, str], knowledge: dict[str, Any]) -> dict:
    """An agent published with every setting a run carries, whose draft has changed since."""
    agent = publish_agent(
        console.api, model, instructions="Published.", tools=TOOLS, knowledge=knowledge, parameters=PARAMETERS
    )
    draft = {
        "revision": agent["draft"]["revision"],
        "config": {**agent["draft"]["config"], "instructions": "Draft."},
    }
    console.api.put(f"/console/api/agents/{agent['id']}/draft", json=draft).raise_for_status()
    return agent


def retrieve(console: Console, dataset_ids: list[str], token: str | None) -> httpx.Response:
    """The console's knowledge retrieval as the runtime calls it, with a run's token."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    body = {"query": "token", "dataset_ids": dataset_ids, "top_k": 2, "score_threshold": None}
    return httpx.post(f"{console.url}/internal/knowledge/retrieve", json=body, headers=headers)


def assert_reads_only_the_agents_datasets(console: Console, token: str, attached: str, other: str) -> None:
    """A run's knowledge token retrieves from its agent's dataset, from no other; none or a guessed one, nothing."""
    found = retrieve(console, [attached], token)
    assert found.status_code == 200, found.text
    assert [record["content"] for record in found.json()["records"]] == ["The attached token is TOKEN-A1."]
    assert retrieve(console, [attached, other], token).json()["code"] == "forbidden"
    assert retrieve(console, [attached], None).json()["code"] == "invalid_token"
    assert retrieve(console, [attached], "guessed").json()["code"] == "invalid_token"


def test_a_run_gets_the_published_config_and_a_knowledge_token_for_its_run_only(
    make_console: Callable[[str], Console], runtime: tuple[FakeRuntime, str], fake_provider: FakeUpstream
) -> None:
    fake, runtime_url = runtime
    console = make_console(runtime_url)
    console.api.post("/console/api/tool-credentials", json=SEARCH).raise_for_status()
    attached = indexed_dataset(console, "Attached", "The attached token is TOKEN-A1.")
    other = indexed_dataset(console, "Other", "The other token is TOKEN-B2.")
    knowledge = {"dataset_ids": [attached], "top_k": 2, "score_threshold": 0.1, **AGENT_DECIDED}
    agent = published_with_a_newer_draft(console, model_of(console, fake_provider), knowledge)

    with ThreadPoolExecutor(1) as pool:
        reply = pool.submit(web_app_events, console, agent, "What is the token?")
        assert fake.started.wait(5)
        run = fake.runs[0]
        assert run["agent"] == {
            "name": "Chat agent",
            "instructions": "Published.",
            "model": {"base_url": fake_provider.base_url, "api_key": PROVIDER_KEY, "name": CHAT_MODEL},
            "parameters": PARAMETERS,
            "tools": TOOLS,
            "knowledge": knowledge,
            "env": {},
            "secret_env": {},
            "outputs": [],
            "skills": [],
        }
        assert (run["query"], run["history"]) == ("What is the token?", [])
        services = run["services"]
        # Where shellctl and the console are is the runtime's own setting: the run names neither.
        assert set(services) == {"shellctl_owner", "web_search", "knowledge"}
        assert services["shellctl_owner"] == agent["id"]  # so deleting the agent removes its workspaces
        assert services["web_search"] == {"base_url": "http://search.test/v1", "api_key": "ws-secret-1"}
        assert set(services["knowledge"]) == {"token"}
        assert fake.authorizations == [("/runs", f"Bearer {RUNTIME_TOKEN}")]
        token = services["knowledge"]["token"]
        assert_reads_only_the_agents_datasets(console, token, attached, other)
        fake.release.set()
        events = reply.result(timeout=10)

    assert events[0] == Event(
        "message_start", {"conversation_id": run["conversation_id"], "message_id": run["run_id"]}
    )
    assert (events[-1].name, events[-1].data["content"], events[-1].data["status"]) == (
        "message_end",
        "Done.",
        "completed",
    )
    expired = retrieve(console, [attached], token)
    assert (expired.status_code, expired.json()["code"]) == (401, "invalid_token")


def test_a_run_gets_the_web_search_key_and_a_knowledge_token_only_for_tools_it_enables(
    make_console: Callable[[str], Console], runtime: tuple[FakeRuntime, str], fake_provider: FakeUpstream
) -> None:
    """Least privilege: a dataset attached and a web search credential set do not hand a run the
    key or a token while the tools that use them are off, whatever other tool is on."""
    fake, runtime_url = runtime
    fake.release.set()
    console = make_console(runtime_url)
    console.api.post("/console/api/tool-credentials", json=SEARCH).raise_for_status()
    attached = indexed_dataset(console, "Attached", "The attached token is TOKEN-A1.")
    tools = [
        {"name": "knowledge_search", "enabled": False},
        {"name": "web_search", "enabled": False},
        {"name": "json_replace", "enabled": True},
    ]
    knowledge = {"dataset_ids": [attached], "top_k": 2, "score_threshold": None, **AGENT_DECIDED}
    agent = publish_agent(console.api, model_of(console, fake_provider), tools=tools, knowledge=knowledge)

    web_app_events(console, agent, "What is the token?")
    services = fake.runs[0]["services"]
    assert services == {"shellctl_owner": agent["id"], "web_search": None, "knowledge": None}


def test_a_run_gets_plain_variables_in_the_instructions_and_secret_ones_only_for_the_sandbox(
    make_console: Callable[[str], Console],
    runtime: tuple[FakeRuntime, str],
    fake_provider: FakeUpstream,
    tmp_path: Path,
) -> None:
    fake, runtime_url = runtime
    fake.release.set()
    console = make_console(runtime_url)
    model = model_of(console, fake_provider)
    instructions = "Region {{env.REGION}}, key {{ env.API_TOKEN }}, unknown {{env.MISSING}}, {{env.lower}}."
    agent = publish_agent(console.api, model, instructions=instructions)
    variables = f"/console/api/agents/{agent['id']}/env-vars"
    console.api.post(variables, json={"name": "REGION", "value": "eu-west"}).raise_for_status()
    token = {"name": "API_TOKEN", "value": "tok-9876543210"}
    refused = console.api.post(variables, json={**token, "secret": True})
    assert (refused.status_code, refused.json()["code"]) == (422, "secret_in_instructions")
    # As a console from before that refusal left it: a secret the published instructions use.
    console.api.post(variables, json=token).raise_for_status()
    with closing(sqlite3.connect(tmp_path / "console.db")) as conn, conn:
        conn.execute("UPDATE agent_env_vars SET secret = 1 WHERE name = 'API_TOKEN'")

    web_app_events(console, agent, "Where are you?")
    run = fake.runs[0]["agent"]
    assert run["instructions"] == (
        "Region eu-west, key {{ env.API_TOKEN }}, unknown {{env.MISSING}}, {{env.lower}}."
    )
    assert run["env"] == {"REGION": "eu-west"}
    assert run["secret_env"] == {"API_TOKEN": "tok-9876543210"}


def test_a_runtime_that_refuses_or_is_unreachable_is_503_and_nothing_is_stored(
    make_console: Callable[[str], Console], runtime: tuple[FakeRuntime, str], fake_provider: FakeUpstream
) -> None:
    fake, runtime_url = runtime
    fake.refuse_with = 422
    console = make_console(runtime_url)
    agent = publish_agent(console.api, model_of(console, fake_provider))
    key = console.api.post(f"/console/api/agents/{agent['id']}/api-keys", json={}).json()["secret"]
    refused = console.public.post(f"/chat/{site_token(agent)}/api/messages", json={"query": "Hi"})
    assert (refused.status_code, refused.json()["code"]) == (503, "runtime_unavailable")
    assert "refused the run (HTTP 422 invalid_request)" in refused.json()["message"]

    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        down = make_console(f"http://127.0.0.1:{sock.getsockname()[1]}")
    body = {"query": "Hi", "response_mode": "streaming", "user": "u"}
    unreachable = down.public.post("/v1/chat-messages", json=body, headers={"Authorization": f"Bearer {key}"})
    assert (unreachable.status_code, unreachable.json()["code"]) == (503, "runtime_unavailable")
    assert "cannot be reached" in unreachable.json()["message"]
    assert console.db_rows("SELECT * FROM conversations") == []


def test_a_stream_that_breaks_off_is_a_failed_reply(
    make_console: Callable[[str], Console], runtime: tuple[FakeRuntime, str], fake_provider: FakeUpstream
) -> None:
    fake, runtime_url = runtime
    fake.before, fake.after = [("message.delta", {"text": "Hal"})], []
    fake.release.set()
    console = make_console(runtime_url)
    agent = publish_agent(console.api, model_of(console, fake_provider))
    events = web_app_events(console, agent, "Hi")
    assert [event.name for event in events] == ["message_start", "message_delta", "message_end"]
    reply = events[-1].data
    assert (reply["status"], reply["content"]) == ("failed", "Hal")
    assert reply["error"] == {
        "code": "runtime_unavailable",
        "message": "The connection to the agent runtime was lost.",
    }


def wait_for_reply(console: Console, agent: dict[str, Any], conversation_id: str) -> dict[str, Any]:
    url = f"/chat/{site_token(agent)}/api/conversations/{conversation_id}/messages"
    deadline = time.monotonic() + 5
    while len(stored := console.public.get(url).json()["data"]) < 2:
        assert time.monotonic() < deadline, stored
        time.sleep(0.02)
    return stored[-1]


def test_a_web_app_reply_is_stored_after_the_visitor_left(
    make_console: Callable[[str], Console], runtime: tuple[FakeRuntime, str], fake_provider: FakeUpstream
) -> None:
    fake, runtime_url = runtime
    console = make_console(runtime_url)
    agent = publish_agent(console.api, model_of(console, fake_provider))
    url = f"/chat/{site_token(agent)}/api/messages"
    with console.public.stream("POST", url, json={"query": "Hi"}) as response:
        start = next(read_events(response))
    fake.release.set()
    reply = wait_for_reply(console, agent, start.data["conversation_id"])
    assert (reply["status"], reply["content"]) == ("completed", "Done.")


def test_stop_cuts_the_stream_when_the_runtime_does_not_end_the_run(
    make_console: Callable[[str], Console],
    runtime: tuple[FakeRuntime, str],
    fake_provider: FakeUpstream,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(chat_runs, "_STOP_GRACE_S", 0.2)
    fake, runtime_url = runtime  # the fake's cancel never confirms
    fake.before = [("message.delta", {"text": "Partial"})]
    console = make_console(runtime_url)
    agent = publish_agent(console.api, model_of(console, fake_provider))
    api = f"/chat/{site_token(agent)}/api"
    with console.public.stream("POST", f"{api}/messages", json={"query": "Hi"}) as response:
        events = read_events(response)
        start, _ = next(events), next(events)
        stopped = console.public.post(f"{api}/messages/{start.data['message_id']}/stop").json()
        assert [event.name for event in events] == ["message_end"]
    assert (stopped["status"], stopped["content"], stopped["moderated"]) == ("cancelled", "Partial", None)
    stored = wait_for_reply(console, agent, start.data["conversation_id"])  # nothing moderated it
    assert (stored["status"], stored["content"], stored["moderated"]) == ("cancelled", "Partial", None)
    message_id = start.data["message_id"]
    assert fake.authorizations[-1] == (f"/runs/{message_id}/cancel", f"Bearer {RUNTIME_TOKEN}")


def test_chat_service_urls_are_validated_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENT_BUILDER_RUNTIME_URL", "http://runtime:5050/")
    monkeypatch.setenv("AGENT_BUILDER_RUNTIME_TOKEN", RUNTIME_TOKEN)
    monkeypatch.delenv("AGENT_BUILDER_SHELLCTL_URL", raising=False)
    config = ConsoleConfig.load(db_path=tmp_path / "c.db")
    assert (config.runtime_url, config.runtime_token, config.shellctl_url) == (
        "http://runtime:5050",
        RUNTIME_TOKEN,
        None,
    )
    assert RUNTIME_TOKEN not in repr(config)
    monkeypatch.setenv("AGENT_BUILDER_SHELLCTL_URL", "localhost:5004")
    with pytest.raises(ValueError, match="AGENT_BUILDER_SHELLCTL_URL must be an http"):
        ConsoleConfig.load(db_path=tmp_path / "c.db")


def test_a_runtime_url_without_the_runtime_token_is_refused_at_start(tmp_path: Path) -> None:
    config = ConsoleConfig(db_path=tmp_path / "c.db", runtime_url="http://127.0.0.1:5050")
    with pytest.raises(
        ConfigError, match="AGENT_BUILDER_RUNTIME_URL is set but AGENT_BUILDER_RUNTIME_TOKEN is not"
    ):
        create_app(config)


def test_a_short_runtime_token_is_refused_without_being_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AGENT_BUILDER_RUNTIME_TOKEN", "short-secret")
    with pytest.raises(ConfigError) as error:
        ConsoleConfig.load(db_path=tmp_path / "c.db")
    assert str(error.value).startswith(
        "AGENT_BUILDER_RUNTIME_TOKEN must be the token the runtime was started with"
    )
    assert "short-secret" not in str(error.value)
