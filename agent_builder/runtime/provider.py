"""One streaming call to an OpenAI-compatible `/chat/completions`: text deltas are handed out as
they arrive, tool-call fragments are accumulated, usage is read from the final chunk."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
from httpx_sse import EventSource

from agent_builder.provider_errors import provider_refusal
from agent_builder.redaction import scrub

# Identifies this call site to the provider side (the suite's record/replay keys on it).
MODEL_CALLER = "agent"


@dataclass
class ToolCallRequest:
    id: str
    name: str = ""
    arguments: str = ""


@dataclass
class Completion:
    text: str = ""
    tool_calls: list[ToolCallRequest] = field(default_factory=list)
    prompt_tokens: int = 0
    completion_tokens: int = 0


class ProviderError(Exception):
    """A failed model call. `transient` failures (429, 5xx, connection trouble) may be retried."""

    def __init__(self, message: str, status: int | None, transient: bool) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.transient = transient


async def stream_chat(
    http: httpx.AsyncClient, base_url: str, api_key: str, body: dict[str, Any], on_text: Callable[[str], None]
) -> Completion:
    headers = {
        "Authorization": f"Bearer {api_key}",
        "X-Model-Caller": MODEL_CALLER,
        "Accept": "text/event-stream",
    }
    url = f"{base_url.rstrip('/')}/chat/completions"
    try:
        async with http.stream("POST", url, json=body, headers=headers) as response:
            if response.status_code >= 400:
                await response.aread()
                status = response.status_code
                raise ProviderError(
                    f"HTTP {status}: {provider_refusal(response, [api_key])}",
                    status,
                    transient=status == 429 or status >= 500,
                )
            if not response.headers.get("content-type", "").startswith("text/event-stream"):
                raise ProviderError("The model provider did not answer with an event stream.", None, False)
            return await _read_stream(response, on_text, api_key)
    except httpx.HTTPError as exc:  # refused, reset, timed out, malformed: worth another attempt
        raise ProviderError(
            f"Cannot reach the model provider: {_describe(exc)}", None, transient=True
        ) from None


async def _read_stream(response: httpx.Response, on_text: Callable[[str], None], api_key: str) -> Completion:
    completion = Completion()
    calls: dict[int, ToolCallRequest] = {}
    async for event in EventSource(response).aiter_sse():
        if not event.data:
            continue  # an event without data (the decoder already drops `:` keep-alive comments)
        if event.data.strip() == "[DONE]":
            break
        try:
            chunk = json.loads(event.data)
        except ValueError:
            raise ProviderError("The model provider sent a malformed stream chunk.", None, False) from None
        if error := chunk.get("error"):
            message = error.get("message") if isinstance(error, dict) else error
            raise ProviderError(
                scrub(f"The model provider failed mid-stream: {message}", [api_key]), None, False
            )
        if usage := chunk.get("usage"):
            completion.prompt_tokens += usage.get("prompt_tokens") or 0
            completion.completion_tokens += usage.get("completion_tokens") or 0
        for choice in chunk.get("choices") or []:
            delta = choice.get("delta") or {}
            if text := delta.get("content"):
                completion.text += text
                on_text(text)
            for fragment in delta.get("tool_calls") or []:
                _merge_tool_call(calls, fragment)
    completion.tool_calls = [calls[index] for index in sorted(calls)]
    return completion


def _merge_tool_call(calls: dict[int, ToolCallRequest], fragment: dict[str, Any]) -> None:
    # The first fragment of a call carries its id and name; later ones append argument text.
    index = fragment.get("index", len(calls))
    call = calls.setdefault(index, ToolCallRequest(id=f"call_{index}"))
    if fragment.get("id"):
        call.id = fragment["id"]
    function = fragment.get("function") or {}
    call.name += function.get("name") or ""
    call.arguments += function.get("arguments") or ""


def _describe(exc: httpx.HTTPError) -> str:
    return str(exc) or type(exc).__name__
