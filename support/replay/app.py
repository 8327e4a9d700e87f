"""The OpenAI-compatible record/replay HTTP app, one function per route.

Routes:
- `GET /v1/models`, `POST /v1/chat/completions` (JSON or `stream: true` SSE);
- `POST /v1/audio/transcriptions` (multipart `file` and fields; keyed by the audio's hash);
- `GET|POST /search/{path}`: a JSON passthrough for a web-search provider (call site `tool:web_search`);
- `/__replay/...`: the control API (scenario scope: open, so far, close; patches, state, health).

Modes: `replay` serves cassettes and never opens a network connection; `record` forwards to the
upstream with the key from `E2E_STABLE_MODEL_API_KEY` and writes the scenario's cassette when its
scope closes; `live` forwards and records nothing. Patches apply in every mode.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from pydantic import TypeAdapter

from support.replay.calls import handle
from support.replay.cassette import CassetteError
from support.replay.config import ReplayConfig
from support.replay.errors import provider_error
from support.replay.forward import Upstream
from support.replay.hub import OpenScope, ReplayHub
from support.replay.matching import (
    WEB_SEARCH_CALL_SITE,
    audio_request,
    call_site_of,
    chat_request,
    http_request,
)
from support.replay.scope import AnyPatch, Patch, ScopeError

_NOT_FORWARDED = frozenset({"host", "content-length", "connection", "accept-encoding", "x-model-caller"})
_PATCH: TypeAdapter[AnyPatch] = TypeAdapter(Patch)


def _hub(request: Request) -> ReplayHub:
    hub: ReplayHub = request.app.state.hub
    return hub


async def _scope_conflict(_: Request, error: Exception) -> JSONResponse:
    return provider_error(409, str(error), "replay_scope")


async def _bad_cassette(_: Request, error: Exception) -> JSONResponse:
    return provider_error(422, str(error), "cassette_error")


async def models(request: Request) -> Response:
    hub = _hub(request)
    if hub.config.mode == "replay":
        data = [{"id": name, "object": "model", "created": 0, "owned_by": "replay"} for name in hub.models()]
        return JSONResponse({"object": "list", "data": data})
    try:
        response = await hub.client.get(
            f"{hub.config.upstream}/models", headers={"Authorization": f"Bearer {hub.config.api_key}"}
        )
    except httpx.HTTPError as error:
        return provider_error(502, f"replay: upstream failed: {error!r}", "upstream_error")
    return Response(
        response.content, status_code=response.status_code, media_type=response.headers.get("content-type")
    )


async def chat_completions(request: Request) -> Response:
    hub = _hub(request)
    content = await request.body()
    try:
        normalized = chat_request(json.loads(content), call_site_of(request.headers))
    except (ValueError, TypeError, AttributeError) as error:
        return provider_error(400, f"invalid chat completion request: {error}", "invalid_request_error")
    upstream = Upstream(
        "POST",
        f"{hub.config.upstream}/chat/completions",
        content,
        {
            "Authorization": f"Bearer {hub.config.api_key}",
            "Content-Type": "application/json",
            "Accept": request.headers.get("accept", "application/json"),
        },
    )
    return await handle(hub, request, "chat", normalized, upstream)


async def transcriptions(request: Request) -> Response:
    hub = _hub(request)
    content = await request.body()
    try:
        form = await request.form()
    except ValueError as error:  # not multipart, or a broken body
        return provider_error(400, f"invalid transcription request: {error}", "invalid_request_error")
    upload = form.get("file")
    if upload is None or isinstance(upload, str):
        return provider_error(400, "invalid transcription request: no `file` part", "invalid_request_error")
    fields = [(key, value) for key, value in form.multi_items() if isinstance(value, str)]
    audio = await upload.read()
    normalized = audio_request(fields, audio, upload.content_type or "", call_site_of(request.headers))
    upstream = Upstream(
        "POST",
        f"{hub.config.upstream}/audio/transcriptions",
        content,
        {"Authorization": f"Bearer {hub.config.api_key}", "Content-Type": request.headers["content-type"]},
    )
    return await handle(hub, request, "transcription", normalized, upstream)


async def search(path: str, request: Request) -> Response:
    hub = _hub(request)
    content = await request.body()
    try:
        body = json.loads(content) if content else None
    except ValueError as error:
        return provider_error(
            400, f"the search passthrough relays JSON only: {error}", "invalid_request_error"
        )
    normalized = http_request(
        request.method, f"/{path}", list(request.query_params.multi_items()), body, WEB_SEARCH_CALL_SITE
    )
    upstream = None
    if hub.config.search_upstream:
        query = f"?{request.url.query}" if request.url.query else ""
        url = f"{hub.config.search_upstream.rstrip('/')}/{path}{query}"
        headers = {name: value for name, value in request.headers.items() if name not in _NOT_FORWARDED}
        upstream = Upstream(request.method, url, content, headers)
    return await handle(hub, request, "search", normalized, upstream)


async def open_scope(body: OpenScope, request: Request) -> dict[str, Any]:
    return _hub(request).open_scope(body)


async def scope_report(request: Request) -> dict[str, Any]:
    return _hub(request).scope_report().model_dump(mode="json")


async def close_scope(request: Request) -> dict[str, Any]:
    return _hub(request).close_scope().model_dump(mode="json")


async def add_patch(request: Request) -> Response:
    try:
        patch = _PATCH.validate_python(await request.json())
    except ValueError as error:
        return provider_error(422, f"invalid patch: {error}", "invalid_patch")
    return JSONResponse(_hub(request).add_patch(patch).model_dump(mode="json"))


async def state(request: Request) -> dict[str, Any]:
    return _hub(request).state()


async def healthz(request: Request) -> dict[str, Any]:
    return {"ok": True, "mode": _hub(request).config.mode}


def create_app(config: ReplayConfig) -> FastAPI:
    """The app; `app.state.hub` is its `ReplayHub` (stop it before a graceful shutdown)."""
    hub = ReplayHub(config)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        await hub.aclose()

    app = FastAPI(
        title="model record/replay", lifespan=lifespan, openapi_url=None, docs_url=None, redoc_url=None
    )
    app.state.hub = hub
    app.add_exception_handler(ScopeError, _scope_conflict)
    app.add_exception_handler(CassetteError, _bad_cassette)
    app.add_api_route("/v1/models", models, methods=["GET"])
    app.add_api_route("/v1/chat/completions", chat_completions, methods=["POST"])
    app.add_api_route("/v1/audio/transcriptions", transcriptions, methods=["POST"])
    app.add_api_route("/search/{path:path}", search, methods=["GET", "POST"])
    app.add_api_route("/__replay/scenario", open_scope, methods=["POST"])
    app.add_api_route("/__replay/scenario", scope_report, methods=["GET"])
    app.add_api_route("/__replay/scenario", close_scope, methods=["DELETE"])
    app.add_api_route("/__replay/patches", add_patch, methods=["POST"])
    app.add_api_route("/__replay/state", state, methods=["GET"])
    app.add_api_route("/__replay/healthz", healthz, methods=["GET"])
    return app
