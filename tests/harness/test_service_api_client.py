"""The service API client reads the streaming answer as server-sent events (through httpx-sse)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from support.api.service import ServiceApiClient
from tests.fakes.raw_stream import raw_stream_server

# One event's data spread over three `data:` lines, an event without a name (so `message`), a
# comment, and an `error` event; split in several writes so no line arrives whole by luck.
STREAM = [
    b'event: message\ndata: {"answer":\ndata:  "Paris"\n',
    b"data: }\n\n: keep-alive\n\n",
    b'data: {"answer": " is the capital."}\n\n',
    b'event: error\ndata: {"code": "run_failed", "message": "the model failed"}\n\n',
]


@pytest.fixture(scope="module")
def service_url() -> Iterator[str]:
    with raw_stream_server("/v1/chat-messages", STREAM) as server:
        yield f"{server.url}/v1"


def test_streamed_events_join_multi_line_data_and_default_to_message(service_url: str) -> None:
    events = ServiceApiClient(service_url, "app-key").chat_streaming("What is the capital of France?")
    assert [(event.event, event.data.model_dump()) for event in events] == [
        ("message", {"answer": "Paris"}),
        ("message", {"answer": " is the capital."}),
        ("error", {"code": "run_failed", "message": "the model failed"}),
    ]
