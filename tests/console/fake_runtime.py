"""A fake agent runtime that records each run request and streams what the test scripts, and
consoles in this process on real sockets wired to it (so the fake can call a console back like
the runtime does: knowledge retrieval with the run's token). For the tests of what the console
sends the runtime and how it copes (test_chat_run_requests.py), and of the limits on runs at
once (test_chat_limits.py). Fixtures live in those modules."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from api_shortcuts import ADMIN_EMAIL, ADMIN_PASSWORD
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse

from agent_builder.console.app import create_app
from agent_builder.console.config import ConsoleConfig
from support.replay.server import BackgroundServer
from tests.console_api_setup import signed_in

SHELLCTL_URL = "http://127.0.0.1:5004"
RUNTIME_TOKEN = "console-tests-runtime-token"
COMPLETED = (
    "run.completed",
    {"message": "Done.", "usage": {"prompt_tokens": 3, "completion_tokens": 1, "total_tokens": 4}},
)


@dataclass
class FakeRuntime:
    """Answers `POST /runs` with `run.started`, then `before`, then (once `release` is set)
    `after`; an `after` without a terminal event is a stream that breaks off."""

    before: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    after: list[tuple[str, dict[str, Any]]] = field(default_factory=lambda: [COMPLETED])
    refuse_with: int | None = None
    runs: list[dict[str, Any]] = field(default_factory=list)
    authorizations: list[tuple[str, str | None]] = field(default_factory=list)  # (path, header)
    started: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)
    open_streams: int = 0  # runs whose event stream is still open (the console has not let go)

    def app(self) -> FastAPI:
        app = FastAPI()

        @app.post("/runs")
        async def start_run(request: Request) -> Response:
            self.authorizations.append((request.url.path, request.headers.get("authorization")))
            self.runs.append(json.loads(await request.body()))
            self.started.set()
            if self.refuse_with:
                return JSONResponse(
                    {"code": "invalid_request", "message": "no"}, status_code=self.refuse_with
                )
            return StreamingResponse(self._events(self.runs[-1]["run_id"]), media_type="text/event-stream")

        @app.post("/runs/{run_id}/cancel")
        async def cancel_run(request: Request, run_id: str) -> Response:
            # Never confirms (as if the run were ending anyway): the console cuts the stream itself.
            self.authorizations.append((request.url.path, request.headers.get("authorization")))
            return JSONResponse({"code": "run_not_found", "message": "no"}, status_code=404)

        return app

    async def _events(self, run_id: str) -> AsyncIterator[bytes]:
        self.open_streams += 1
        try:
            for name, data in [("run.started", {"run_id": run_id}), *self.before]:
                yield f"event: {name}\ndata: {json.dumps(data)}\n\n".encode()
            while not self.release.is_set():
                await asyncio.sleep(0.01)
            for name, data in self.after:
                yield f"event: {name}\ndata: {json.dumps(data)}\n\n".encode()
        finally:
            self.open_streams -= 1


@dataclass(frozen=True)
class Console:
    url: str
    api: httpx.Client  # signed in
    public: httpx.Client
    db_rows: Callable[[str], list[Any]]


def serve_console(stack: ExitStack, db_path: Path, runtime_url: str, **settings: Any) -> Console:
    """A console on `db_path`, served on a real socket until `stack` closes, wired to the given
    runtime URL; `settings` are further ConsoleConfig fields."""
    app = create_app(
        ConsoleConfig(
            db_path=db_path,
            runtime_url=runtime_url,
            runtime_token=RUNTIME_TOKEN,
            shellctl_url=SHELLCTL_URL,
            **settings,
        )
    )
    url = stack.enter_context(BackgroundServer(app)).url
    api = stack.enter_context(signed_in(url, ADMIN_EMAIL, ADMIN_PASSWORD, timeout_s=10))
    public = stack.enter_context(httpx.Client(base_url=url, headers={"Origin": url}, timeout=10))

    def db_rows(sql: str) -> list[Any]:
        with app.state.db.read() as conn:
            return conn.execute(sql).fetchall()

    return Console(url, api, public, db_rows)
