"""Whom the runtime serves and where it sends its tokens: only a caller with the runtime's token
(AGENT_BUILDER_RUNTIME_TOKEN, the console) starts or cancels a run, and the sandbox and knowledge
services are the runtime's own settings, never URLs a request names."""

from __future__ import annotations

import httpx
import pytest

from support.stack import Service
from tests.fakes.upstream import CallTool, FakeUpstream, Text
from tests.runtime.conftest import RUNTIME_TOKEN, SHELLCTL_TOKEN
from tests.runtime.run_requests import KNOWLEDGE_TOKEN, SEARCH_KEY, names, run_body, run_events


@pytest.mark.parametrize(
    "authorization",
    [None, "Bearer not-the-runtime-token", "Bearer", RUNTIME_TOKEN, f"Basic {RUNTIME_TOKEN}"],
)
def test_runs_and_cancels_need_the_runtime_token(
    runtime: Service, fake_upstream: FakeUpstream, authorization: str | None
) -> None:
    headers = {"Authorization": authorization} if authorization is not None else {}
    body = run_body(fake_upstream.base_url, "hi")
    for path in ("/runs", f"/runs/{body['run_id']}/cancel"):
        response = httpx.post(f"{runtime.url}{path}", json=body, headers=headers)
        assert response.status_code == 401, (path, response.text)
        assert response.json() == {
            "code": "unauthorized",
            "message": "A valid runtime token is required (Authorization: Bearer).",
        }
        assert response.headers["www-authenticate"] == "Bearer"
    assert fake_upstream.seen == []  # no model was called for it


def test_the_probes_stay_open(runtime: Service) -> None:
    assert httpx.get(f"{runtime.url}/healthz").json() == {"status": "ok"}
    assert "/runs" in httpx.get(f"{runtime.url}/openapi.json").json()["paths"]


@pytest.mark.parametrize(
    "services",
    [
        {"shellctl_url": "LISTENER"},
        {"knowledge": {"retrieve_url": "LISTENER/internal/knowledge/retrieve", "token": KNOWLEDGE_TOKEN}},
    ],
    ids=["shellctl_url", "knowledge.retrieve_url"],
)
def test_a_request_cannot_name_where_the_runtime_sends_its_tokens(
    client: httpx.Client, fake_upstream: FakeUpstream, services: dict
) -> None:
    # Seen before: the runtime sent its shellctl token to whatever shellctl_url the caller named.
    named = {
        key: (value.replace("LISTENER", fake_upstream.url) if isinstance(value, str) else value)
        for key, value in services.items()
    }
    if "knowledge" in named:
        named["knowledge"] = {**named["knowledge"], "retrieve_url": f"{fake_upstream.url}/steal"}
    body = run_body(fake_upstream.base_url, "run the command `ls`", tools=("sandbox_shell",), services=named)
    response = client.post("/runs", json=body)
    assert response.status_code == 422, response.text
    assert response.json()["code"] == "invalid_request"
    assert fake_upstream.seen == []


def test_tools_reach_only_the_configured_services_and_no_token_leaves_for_another_host(
    client: httpx.Client, fake_upstream: FakeUpstream
) -> None:
    # The model and web search (URLs the request names, with keys the request carries) and
    # knowledge retrieval (the configured console URL) are all the fake; the sandbox is the
    # configured shellctl. None but shellctl may get the shellctl token; nobody the runtime's.
    fake_upstream.reply(
        CallTool("sandbox_shell", {"command": "echo in-the-sandbox"}),
        CallTool("knowledge_search", {"query": "launch code"}),
        CallTool("web_search", {"query": "launch code"}),
        Text("Done."),
    )
    body = run_body(
        fake_upstream.base_url,
        "use every tool",
        tools=("sandbox_shell", "knowledge_search", "web_search"),
        services={
            "knowledge": {"token": KNOWLEDGE_TOKEN},
            "web_search": {"base_url": f"{fake_upstream.url}/search", "api_key": SEARCH_KEY},
        },
        knowledge={"dataset_ids": ["ds-1"]},
    )
    events = run_events(client, body)
    results = [event.data for event in events if event.name == "tool.result"]
    assert [(result["name"], result["is_error"]) for result in results] == [
        ("sandbox_shell", False),
        ("knowledge_search", False),
        ("web_search", False),
    ]
    assert results[0]["output"] == "in-the-sandbox\n"  # the configured shellctl took the token
    (retrieve,) = fake_upstream.calls("/internal/knowledge/retrieve")
    assert retrieve.headers["authorization"] == f"Bearer {KNOWLEDGE_TOKEN}"
    (search,) = fake_upstream.calls("/search/")
    assert search.headers["authorization"] == f"Bearer {SEARCH_KEY}"
    for seen in fake_upstream.seen:
        for token in (SHELLCTL_TOKEN, RUNTIME_TOKEN):
            assert token not in str(seen.headers), seen.path


def test_an_insecure_runtime_warns_and_has_no_sandbox_or_knowledge_unless_configured(
    insecure_runtime: Service, reference_model_url: str
) -> None:
    log = insecure_runtime.log_path.read_text()
    assert "AGENT_BUILDER_RUNTIME_INSECURE_NO_TOKEN=1: the runtime serves WITHOUT a token" in log
    with httpx.Client(base_url=insecure_runtime.url, timeout=30) as anyone:
        shell = run_events(
            anyone, run_body(reference_model_url, "run the command `ls`", tools=("sandbox_shell",))
        )
        search = run_events(
            anyone,
            run_body(
                reference_model_url,
                "search the knowledge base for the launch code",
                tools=("knowledge_search",),
                services={"knowledge": {"token": KNOWLEDGE_TOKEN}},
            ),
        )
    outputs = [
        next(event.data for event in events if event.name == "tool.result") for events in (shell, search)
    ]
    assert [output["is_error"] for output in outputs] == [True, True]
    assert "no sandbox (shellctl) is configured" in outputs[0]["output"]
    assert "no knowledge retrieval is configured" in outputs[1]["output"]
    assert names(shell)[-1] == "run.completed"
