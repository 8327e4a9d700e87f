"""Server-sent events on the wire: the one writer of `data:` frames (served streams, the reference
model), the reader of an upstream's stream (httpx-sse), and the relay that paces and parks a stream.

A chunk is one SSE `data` payload: JSON-decoded when it is a JSON object or array, else the text
verbatim (e.g. `[DONE]`), as cassettes store it.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Iterable
from typing import Any

import httpx
from httpx_sse import EventSource

END_OF_STREAM = "[DONE]"  # the OpenAI-style stream's last chunk


def sse_frame(data: str) -> bytes:
    """One event carrying `data`; each of its lines is a `data:` line, as the SSE format requires."""
    return ("".join(f"data: {line}\n" for line in data.split("\n")) + "\n").encode()


def _encode(chunk: Any) -> bytes:
    data = chunk if isinstance(chunk, str) else json.dumps(chunk, ensure_ascii=False, separators=(",", ":"))
    return sse_frame(data)


def _decode(data: str) -> Any:
    try:
        value = json.loads(data)
    except ValueError:
        return data
    return value if isinstance(value, dict | list) else data  # keep scalars verbatim (e.g. [DONE])


async def upstream_chunks(response: httpx.Response) -> AsyncIterator[Any]:
    """The chunks of a `text/event-stream` response; a multi-line `data` is joined with newlines."""
    async for event in EventSource(response).aiter_sse():
        if event.data:  # an event without data (e.g. only `event:` or `retry:`) carries no chunk
            yield _decode(event.data)


async def chunks_of(chunks: Iterable[Any]) -> AsyncGenerator[Any, None]:
    for chunk in chunks:
        yield chunk


async def relay(
    chunks: AsyncGenerator[Any, None],
    pace_ms: int,
    park: Callable[[], Awaitable[object]] | None = None,
    park_after: int | None = None,
    on_complete: Callable[[], None] | None = None,
) -> AsyncIterator[bytes]:
    """An SSE body: `chunks` in order, `pace_ms` apart; with `park`, it parks after `park_after`
    chunks (also when there are fewer) and ends when `park` returns; else `on_complete` runs
    once every chunk was sent: at the `[DONE]` marker, or when the chunks end without one."""
    complete = None if park else on_complete
    try:
        sent = 0
        async for chunk in chunks:
            if park and sent == park_after:
                break
            if sent and pace_ms:
                await asyncio.sleep(pace_ms / 1000)
            # The end marker makes the stream whole: a client that reads up to it hangs up at
            # once, which cancels this relay before the upstream's end would be seen.
            if chunk == END_OF_STREAM and complete:
                complete()
                complete = None
            yield _encode(chunk)
            sent += 1
        else:
            if complete:
                complete()
        if park:  # also when the recording had fewer chunks: the stream stays open either way
            await park()
    finally:
        await chunks.aclose()  # releases the upstream response when relaying
