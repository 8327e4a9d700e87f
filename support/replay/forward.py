"""Forwarding a call to the upstream provider (modes `record` and `live`) and, in `record`,
keeping its answer as a cassette entry of the open scope.

A failure to record (no or failing upstream, non-JSON answer) is a scope problem: the cassette
would silently lack that call.
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator
from dataclasses import dataclass
from typing import Any

import httpx
from fastapi import Request
from fastapi.responses import JSONResponse, Response, StreamingResponse

from support.replay.cassette import Entry, JsonResponse, RecordedResponse, SseResponse
from support.replay.errors import provider_error
from support.replay.hub import Hold, ReplayHub
from support.replay.matching import AnyRequest, key_of
from support.replay.scope import Scope, Target
from support.replay.scrub import is_secret_field
from support.replay.sse import upstream_chunks


@dataclass(frozen=True)
class Upstream:
    """The request to send upstream: the route builds it, with the provider's credentials."""

    method: str
    url: str
    content: bytes
    headers: dict[str, str]


@dataclass(frozen=True)
class Recording:
    """The scope, target and call number a forwarded call is recorded under (`record` mode)."""

    scope: Scope
    target: Target
    number: int

    def problem(self, request: AnyRequest, reason: str) -> None:
        self.scope.add_problem(request, self.target, self.number, reason)

    def keep(self, request: AnyRequest, response: RecordedResponse) -> None:
        entry = Entry(key=key_of(request), call_site=request.call_site, request=request, response=response)
        self.scope.recorded.append(entry)


async def forward(
    hub: ReplayHub,
    request: Request,
    normalized: AnyRequest,
    upstream: Upstream | None,
    recording: Recording | None = None,
    hold: Hold | None = None,
    pace_ms: int = 0,
) -> Response:
    """Relays the call to the provider (a stream with `pace_ms` between chunks); with `recording`,
    records the answer into its scope."""
    if upstream is None:
        if recording:
            recording.problem(normalized, "no upstream is configured for this route")
        return provider_error(502, "replay: no upstream is configured for this route", "upstream_error")
    if recording:
        recording.scope.secrets |= _request_secrets(request, upstream.content)
    try:
        sent = hub.client.build_request(
            upstream.method, upstream.url, content=upstream.content, headers=upstream.headers
        )
        response = await hub.client.send(sent, stream=True)
    except httpx.HTTPError as error:
        if recording:
            recording.problem(normalized, f"upstream {upstream.url} failed: {error!r}")
        return provider_error(502, f"replay: upstream failed: {error!r}", "upstream_error")
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        return _stream_back(hub, request, normalized, response, recording, hold, pace_ms)
    return await _json_back(normalized, response, recording)


def _stream_back(
    hub: ReplayHub,
    request: Request,
    normalized: AnyRequest,
    response: httpx.Response,
    recording: Recording | None,
    hold: Hold | None,
    pace_ms: int,
) -> StreamingResponse:
    """Relays the upstream's stream chunk by chunk; records it once it was relayed whole."""
    seen: list[Any] = []

    async def chunks() -> AsyncGenerator[Any, None]:
        try:
            async for chunk in upstream_chunks(response):
                seen.append(chunk)
                yield chunk
        finally:
            await response.aclose()

    def complete() -> None:
        if recording:
            recording.keep(normalized, SseResponse(status=response.status_code, chunks=seen))

    body = hub.relay(request, chunks(), pace_ms, hold, complete)
    return StreamingResponse(body, status_code=response.status_code, media_type="text/event-stream")


async def _json_back(
    normalized: AnyRequest, response: httpx.Response, recording: Recording | None
) -> Response:
    raw = await response.aread()
    await response.aclose()
    try:
        payload = json.loads(raw)
    except ValueError:
        # Not JSON (e.g. a proxy's HTML error page): passed on, but it cannot be recorded.
        if recording:
            recording.problem(normalized, f"upstream answered {response.status_code} with a non-JSON body")
        return Response(
            raw, status_code=response.status_code, media_type=response.headers.get("content-type")
        )
    if recording:
        recording.keep(normalized, JsonResponse(status=response.status_code, body=payload))
    return JSONResponse(payload, status_code=response.status_code)


def _request_secrets(request: Request, content: bytes) -> set[str]:
    """Credential values the client sent (headers, query, JSON body), to scrub from the cassette."""
    found = {
        part
        for name, value in request.headers.items()
        if is_secret_field(name)
        for part in (value, *value.split())
    }
    found |= {value for name, value in request.query_params.multi_items() if is_secret_field(name) and value}
    try:
        found |= _body_secrets(json.loads(content)) if content else set()
    except ValueError:
        pass  # not JSON: nothing field-named to collect
    return found


def _body_secrets(value: Any) -> set[str]:
    if isinstance(value, dict):
        found = {
            item
            for key, item in value.items()
            if is_secret_field(str(key)) and isinstance(item, str) and item
        }
        return found.union(*(_body_secrets(item) for item in value.values()))
    if isinstance(value, list):
        return set().union(*(_body_secrets(item) for item in value))
    return set()
