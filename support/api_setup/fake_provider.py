"""A model provider that refuses every key and quotes it back in its error message, as some
OpenAI-compatible servers do: for scenarios about what the console shows of a provider's error.
It runs in the suite's process on 127.0.0.1, so the console must run on this machine (the
embedded console of the PR lane does)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class _QuoteTheKey(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        key = self.headers.get("Authorization", "").removeprefix("Bearer ")
        message = f"Incorrect API key provided: {key}. You can find your API key in your account settings."
        body = json.dumps({"error": {"message": message, "type": "invalid_request_error"}}).encode()
        self.send_response(401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass  # the suite's output is the scenarios'


class KeyQuotingProvider:
    """Started on a free port; `stop()` ends it."""

    def __init__(self) -> None:
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _QuoteTheKey)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, name="key-quoting-provider", daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_port}/v1"

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
