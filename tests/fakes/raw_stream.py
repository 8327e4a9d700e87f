"""A server whose one POST route streams fixed bytes as an event stream, each piece its own
write: for readers that must cope with how a stream is cut (an event's data over several lines,
an event split across writes)."""

from __future__ import annotations

from collections.abc import AsyncIterator

from fastapi import FastAPI
from fastapi.responses import StreamingResponse

from support.replay.server import BackgroundServer


def raw_stream_server(path: str, pieces: list[bytes]) -> BackgroundServer:
    """`with raw_stream_server("/v1/chat/completions", [...]) as server: ... server.url`."""
    app = FastAPI()

    async def body() -> AsyncIterator[bytes]:
        for piece in pieces:
            yield piece

    async def stream() -> StreamingResponse:
        return StreamingResponse(body(), media_type="text/event-stream")

    app.add_api_route(path, stream, methods=["POST"])
    return BackgroundServer(app)
