"""The server-sent events of a streamed response (the runtime's runs, the console's chat), read
with httpx-sse as they arrive, each with its JSON data."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
from httpx_sse import EventSource


@dataclass(frozen=True)
class Event:
    name: str
    data: Any


def read_events(response: httpx.Response) -> Iterator[Event]:
    for event in EventSource(response).iter_sse():
        yield Event(event.event, event.json())
