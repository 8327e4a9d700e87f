"""Runtime HTTP API: start a run (the response is its event stream), cancel it, health probes.
Everything but the probes needs the runtime's token (AGENT_BUILDER_RUNTIME_TOKEN)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
from fastapi import FastAPI
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, SecretStr
from starlette.types import Lifespan

from agent_builder.bearer_auth import BearerTokenMiddleware
from agent_builder.runtime.agent_loop import AgentRun
from agent_builder.runtime.config import RuntimeConfig, check_token
from agent_builder.runtime.events import Event
from agent_builder.runtime.schemas import RunRequest
from agent_builder.service_errors import ApiError, install_error_handlers

_SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
# Readiness probes: open without the token.
OPEN_PATHS = frozenset({"/healthz", "/openapi.json"})
_UNAUTHORIZED: dict[int | str, dict[str, Any]] = {
    401: {"description": "no valid runtime token (Authorization: Bearer)"}
}


class CancelAccepted(BaseModel):
    run_id: str
    status: str = "cancelling"


def create_app(config: RuntimeConfig) -> FastAPI:
    """The app; raises ConfigError when it has no token and is not told to serve without one."""
    check_token(config)
    # httpx logs every request URL at INFO; a provider URL may carry a credential (e.g. `?api-key=`).
    logging.getLogger("httpx").setLevel(logging.WARNING)
    active: dict[str, asyncio.Task[None]] = {}

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with httpx.AsyncClient(timeout=httpx.Timeout(config.model_timeout_s)) as http:
            app.state.http = http
            yield
            for task in list(active.values()):
                task.cancel()

    app = _guarded_app(config, lifespan)

    @app.post(
        "/runs",
        response_class=StreamingResponse,
        responses={
            200: {"description": "the run's events", "content": {"text/event-stream": {}}},
            **_UNAUTHORIZED,
            409: {"description": "run_id already active"},
            422: {"description": "invalid request"},
        },
    )
    async def start_run(body: RunRequest) -> StreamingResponse:
        if body.run_id in active:
            raise ApiError(409, "run_exists", f"A run with id {body.run_id!r} is already active.")
        queue: asyncio.Queue[Event] = asyncio.Queue()
        run = AgentRun(body, config, app.state.http, queue.put_nowait)
        task = asyncio.create_task(run.run())
        active[body.run_id] = task
        task.add_done_callback(lambda _: active.pop(body.run_id, None))
        return StreamingResponse(
            _event_stream(queue, task), media_type="text/event-stream", headers=_SSE_HEADERS
        )

    @app.post(
        "/runs/{run_id}/cancel",
        status_code=202,
        responses={**_UNAUTHORIZED, 404: {"description": "no such active run"}},
    )
    async def cancel_run(run_id: str) -> CancelAccepted:
        task = active.get(run_id)
        if task is None:
            raise ApiError(404, "run_not_found", f"No active run with id {run_id!r}.")
        task.cancel()
        return CancelAccepted(run_id=run_id)

    return app


def _guarded_app(config: RuntimeConfig, lifespan: Lifespan[FastAPI]) -> FastAPI:
    """The app with its error handlers, its token check and its open health probe."""
    app = FastAPI(
        title="agent_builder runtime", version="1.0.0", lifespan=lifespan, docs_url=None, redoc_url=None
    )
    install_error_handlers(app)
    if config.token is not None:  # else check_token allowed it, loudly
        app.add_middleware(
            BearerTokenMiddleware, token=SecretStr(config.token), open_paths=OPEN_PATHS, service="runtime"
        )

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    return app


async def _event_stream(queue: asyncio.Queue[Event], task: asyncio.Task[None]) -> AsyncIterator[bytes]:
    try:
        while True:
            event = await queue.get()
            yield event.sse()
            if event.terminal:
                return
    finally:
        # A no-op once the run has ended; when the client went away, this abandons the run.
        task.cancel()
