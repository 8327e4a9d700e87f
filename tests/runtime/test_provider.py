"""The provider client's reading of an OpenAI-compatible event stream, against canned bodies."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from agent_builder.runtime.provider import Completion, ProviderError, stream_chat


def _complete(body: bytes) -> tuple[Completion, list[str]]:
    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"Content-Type": "text/event-stream"}, content=body)

    async def call() -> tuple[Completion, list[str]]:
        texts: list[str] = []
        async with httpx.AsyncClient(transport=httpx.MockTransport(answer)) as http:
            completion = await stream_chat(http, "http://provider/v1", "sk-key", {}, texts.append)
        return completion, texts

    # On a thread of its own: a session's sync Playwright keeps an event loop running on this one.
    with ThreadPoolExecutor(max_workers=1) as worker:
        return worker.submit(asyncio.run, call()).result()


def test_an_event_whose_data_spans_several_lines_is_one_chunk() -> None:
    # SSE joins an event's `data:` lines with newlines; JSON allows a newline between tokens.
    body = (
        b'data: {"choices": [{"delta":\n'
        b'data: {"content": "Hello"}}],\n'
        b'data: "usage": {"prompt_tokens": 3, "completion_tokens": 1}}\n'
        b"\n"
        b"data: [DONE]\n\n"
    )
    completion, texts = _complete(body)
    assert texts == ["Hello"]
    assert (completion.text, completion.prompt_tokens, completion.completion_tokens) == ("Hello", 3, 1)


def test_comments_named_events_and_crlf_framing_are_read() -> None:
    body = (
        b": keep-alive\r\n\r\n"
        b'event: chunk\r\ndata: {"choices": [{"delta": {"content": "Hi"}}]}\r\n\r\n'
        b'data: {"choices": [{"delta": {"tool_calls": [{"index": 0, "id": "c1", '
        b'"function": {"name": "json_replace", "arguments": "{}"}}]}}]}\r\n\r\n'
        b"data: [DONE]\r\n\r\n"
    )
    completion, texts = _complete(body)
    assert texts == ["Hi"]
    assert [(call.id, call.name, call.arguments) for call in completion.tool_calls] == [
        ("c1", "json_replace", "{}")
    ]


def test_a_chunk_that_is_not_json_is_a_provider_error() -> None:
    with pytest.raises(ProviderError, match="malformed stream chunk") as error:
        _complete(b"data: {not json\n\n")
    assert error.value.transient is False
