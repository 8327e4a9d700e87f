"""A run request as the console sends it to the runtime, the events the runtime streams back,
and the secrets those requests carry (which no log may show)."""

from __future__ import annotations

import uuid
from typing import Any

import httpx

from tests.sse_events import Event, read_events

MODEL_KEY = "sk-test-model-key-DO-NOT-LOG-4242"
KNOWLEDGE_TOKEN = "kt-short-lived-token-DO-NOT-LOG-77"
SEARCH_KEY = "ws-search-key-DO-NOT-LOG-99"


def run_events(client: httpx.Client, body: dict[str, Any]) -> list[Event]:
    with client.stream("POST", "/runs", json=body) as response:
        assert response.status_code == 200, response.read()
        assert response.headers["content-type"].startswith("text/event-stream")
        return list(read_events(response))


def run_body(
    base_url: str,
    query: str,
    tools: tuple[str, ...] = (),
    services: dict[str, Any] | None = None,
    history: list[dict[str, str]] | None = None,
    model: str = "gpt-4o-mini",
    **agent: Any,
) -> dict[str, Any]:
    return {
        "run_id": f"run-{uuid.uuid4().hex[:12]}",
        "agent": {
            "name": "E2E agent",
            "instructions": "You are a careful test agent.",
            "model": {"base_url": base_url, "api_key": MODEL_KEY, "name": model},
            "parameters": {"temperature": 0.2, "max_tokens": 256},
            "tools": [{"name": name, "enabled": True} for name in tools],
            **agent,
        },
        "conversation_id": f"conv-{uuid.uuid4().hex[:12]}",
        "history": history or [],
        "query": query,
        "services": services or {},
    }


def names(events: list[Event]) -> list[str]:
    return [event.name for event in events]


def message_text(events: list[Event]) -> str:
    return "".join(event.data["text"] for event in events if event.name == "message.delta")
