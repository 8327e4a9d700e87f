"""Model calls as an agent makes them, through the official SDK, and recording a scenario."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from openai import OpenAI

from tests.fakes.upstream import MODEL

from .conftest import Replay

StartReplay = Callable[..., Replay]
FEATURE = "features/agent/chat.feature"
WEATHER_TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Current weather",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
    },
}


def ask(
    client: OpenAI,
    prompt: str,
    *,
    stream: bool = False,
    history: list[dict[str, Any]] | None = None,
    system: str | None = None,
) -> Any:
    """One model call as an agent makes it: a system prompt, the conversation, the weather tool."""
    messages = [
        {"role": "system", "content": system or f"You are helpful. Today is {datetime.now(UTC).date()}."},
        *(history or []),
        {"role": "user", "content": prompt},
    ]
    if stream:
        chunks = client.chat.completions.create(
            model=MODEL,
            messages=messages,
            tools=[WEATHER_TOOL],
            stream=True,
            stream_options={"include_usage": True},
        )
        return [chunk.model_dump() for chunk in chunks]
    return client.chat.completions.create(model=MODEL, messages=messages, tools=[WEATHER_TOOL]).model_dump()


def agent_turn(client: OpenAI, *, stream: bool) -> list[Any]:
    """Two calls: the model asks for get_weather, then answers from the tool result."""
    first = ask(client, "What is the weather in Paris?", stream=stream)
    if stream:
        pieces = [
            delta
            for chunk in first
            for choice in chunk["choices"]
            for delta in choice["delta"].get("tool_calls") or []
        ]
        call = {
            "id": pieces[0]["id"],
            "type": "function",
            "function": {
                "name": pieces[0]["function"]["name"],
                "arguments": "".join(p["function"]["arguments"] for p in pieces),
            },
        }
    else:
        call = first["choices"][0]["message"]["tool_calls"][0]
    history = [
        {"role": "user", "content": "What is the weather in Paris?"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": call["id"], "content": '{"temp_c": 21}'},
    ]
    second = client.chat.completions.create(
        model=MODEL, messages=history, tools=[WEATHER_TOOL], stream=stream
    )
    return [first, [c.model_dump() for c in second] if stream else second.model_dump()]


def record(start_replay: StartReplay, scenario: str, calls: Callable[[Replay], Any]) -> Any:
    replay = start_replay("record")
    replay.control.open_scope(scenario, FEATURE)
    results = calls(replay)
    report = replay.control.close_scope()
    assert report.ok, report.problems_text()
    assert report.written
    return results
