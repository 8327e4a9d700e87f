"""A tool service that quotes the credential back: the tool card (which web app visitors see)
shows its error without the credential."""

from __future__ import annotations

import json
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from threading import Thread
from typing import Any

import httpx
import pytest

from tests.runtime.run_requests import SEARCH_KEY, run_body, run_events


class _QuotesTheKey(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        key = self.headers.get("Authorization", "").removeprefix("Bearer ")
        body = json.dumps({"message": f"Invalid API key: {key}"}).encode()
        self.send_response(401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def quoting_search() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _QuotesTheKey)
    Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


def test_a_search_service_that_quotes_the_key_is_shown_without_it(
    client: httpx.Client, reference_model_url: str, quoting_search: str
) -> None:
    body = run_body(
        reference_model_url,
        "search the web for agent builders",
        tools=("web_search",),
        services={"web_search": {"base_url": quoting_search, "api_key": SEARCH_KEY}},
    )
    events = run_events(client, body)
    result = next(event.data for event in events if event.name == "tool.result")
    assert result["is_error"] is True
    assert result["output"] == "web_search failed: HTTP 401: Invalid API key: ***"
    assert all(SEARCH_KEY not in json.dumps(event.data) for event in events)
