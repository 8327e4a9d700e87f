"""Knowledge retrieval modes in the console: the draft keeps the mode (and refuses an unknown one
with a 4xx {code, message}, keeping what was saved), and a run of an every-message agent gets a
knowledge token for its datasets even when the model may not call knowledge_search."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from fake_runtime import Console, FakeRuntime
from fastapi.testclient import TestClient
from test_chat_run_requests import (  # noqa: F401  (fixtures)
    indexed_dataset,
    make_console,
    model_of,
    retrieve,
    runtime,
    web_app_events,
)

from tests.console_api_setup import publish_agent
from tests.fakes.upstream import FakeUpstream


def _put(client: TestClient, agent: dict[str, Any], knowledge: dict[str, Any]) -> Any:
    config = {**agent["draft"]["config"], "knowledge": knowledge}
    body = {"revision": agent["draft"]["revision"], "config": config}
    return client.put(f"/console/api/agents/{agent['id']}/draft", json=body)


def test_the_draft_keeps_the_mode_and_refuses_an_unknown_one(client: TestClient) -> None:
    agent = client.post("/console/api/agents", json={"name": "Modes"}).json()
    assert agent["draft"]["config"]["knowledge"]["retrieval_mode"] == "agent_decided"
    saved = _put(client, agent, {"retrieval_mode": "every_message", "top_k": 10, "score_threshold": 0})
    assert saved.status_code == 200, saved.text
    knowledge = saved.json()["config"]["knowledge"]
    assert knowledge == {
        "dataset_ids": [],
        "top_k": 10,
        "score_threshold": 0,
        "retrieval_mode": "every_message",
    }
    agent = client.get(f"/console/api/agents/{agent['id']}").json()
    for bad in ({"retrieval_mode": "always"}, {"top_k": 11}, {"top_k": 0}, {"score_threshold": 1.01}):
        refused = _put(client, agent, bad)
        assert refused.status_code == 422, (bad, refused.text)
        assert set(refused.json()) >= {"code", "message"} and refused.json()["message"]
    kept = client.get(f"/console/api/agents/{agent['id']}").json()["draft"]
    assert (kept["revision"], kept["config"]["knowledge"]) == (agent["draft"]["revision"], knowledge)


def test_an_every_message_run_gets_a_token_for_its_datasets_without_the_search_tool(
    make_console: Callable[[str], Console],  # noqa: F811
    runtime: tuple[FakeRuntime, str],  # noqa: F811
    fake_provider: FakeUpstream,
) -> None:
    fake, runtime_url = runtime
    console = make_console(runtime_url)
    attached = indexed_dataset(console, "Attached", "The attached token is TOKEN-A1.")
    knowledge = {
        "dataset_ids": [attached],
        "top_k": 2,
        "score_threshold": None,
        "retrieval_mode": "every_message",
    }
    agent = publish_agent(console.api, model_of(console, fake_provider), knowledge=knowledge)
    with ThreadPoolExecutor(1) as pool:
        reply = pool.submit(web_app_events, console, agent, "What is the token?")
        assert fake.started.wait(5)
        run = fake.runs[0]
        assert run["agent"]["knowledge"] == knowledge and run["agent"]["tools"] == []
        found = retrieve(console, [attached], run["services"]["knowledge"]["token"])
        assert [record["content"] for record in found.json()["records"]] == [
            "The attached token is TOKEN-A1."
        ]
        fake.release.set()
        reply.result(timeout=10)


def test_an_agent_decided_run_without_the_search_tool_gets_no_token(
    make_console: Callable[[str], Console],  # noqa: F811
    runtime: tuple[FakeRuntime, str],  # noqa: F811
    fake_provider: FakeUpstream,
) -> None:
    fake, runtime_url = runtime
    fake.release.set()
    console = make_console(runtime_url)
    attached = indexed_dataset(console, "Attached", "The attached token is TOKEN-A1.")
    agent = publish_agent(
        console.api, model_of(console, fake_provider), knowledge={"dataset_ids": [attached]}
    )
    web_app_events(console, agent, "What is the token?")
    assert fake.runs[0]["services"].get("knowledge") is None
