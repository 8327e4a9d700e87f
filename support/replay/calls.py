"""One model or search call: apply the scope's patch for it, then answer from the cassette
(`replay`) or from the upstream (`record`, `live`).
"""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import JSONResponse, Response, StreamingResponse

from support.replay.cassette import JsonResponse, RecordedResponse
from support.replay.errors import miss_response, patch_error_body, provider_error
from support.replay.forward import Recording, Upstream, forward
from support.replay.hub import Hold, Parked, ReplayHub
from support.replay.matching import AnyRequest, ChatRequest
from support.replay.scope import FailPatch, HangPatch, Miss, PacePatch, ReplacePatch, Target, build_miss
from support.replay.sse import chunks_of


async def handle(
    hub: ReplayHub,
    request: Request,
    target: Target,
    normalized: AnyRequest,
    upstream: Upstream | None,
) -> Response:
    scope = hub.scope
    if scope is None:
        if hub.config.mode == "replay":
            miss = build_miss(normalized, target, None, "no scenario scope is open", [])
            hub.unscoped_misses.append(miss)
            return miss_response(miss)
        return await forward(hub, request, normalized, upstream)
    call = scope.next_call(target)
    patch = scope.take_patch(target, call)
    if isinstance(patch, FailPatch):
        body = patch.body if patch.body is not None else patch_error_body(patch.status)
        return JSONResponse(body, status_code=patch.status)
    pace_ms = patch.pace_ms if isinstance(patch, PacePatch) else scope.pace_ms
    if isinstance(patch, ReplacePatch):
        return _serve(hub, request, patch.entry, pace_ms, None)
    hold = None
    if isinstance(patch, HangPatch):
        parked = hub.new_parked(scope, target, call, normalized)
        streaming = isinstance(normalized, ChatRequest) and normalized.stream
        if patch.after_chunks == 0 or not streaming:
            return await _hang(hub, request, parked, streaming)
        hold = Hold(parked, patch.after_chunks)
    if hub.config.mode != "replay":
        recording = Recording(scope, target, call) if hub.config.mode == "record" else None
        return await forward(hub, request, normalized, upstream, recording, hold, pace_ms)
    found = scope.take(normalized, target, call)
    if isinstance(found, Miss):
        return miss_response(found)
    return _serve(hub, request, found.response, pace_ms, hold)


def _serve(
    hub: ReplayHub, request: Request, response: RecordedResponse, pace_ms: int, hold: Hold | None
) -> Response:
    if isinstance(response, JsonResponse):
        return JSONResponse(response.body, status_code=response.status)
    body = hub.relay(request, chunks_of(response.chunks), pace_ms, hold)
    return StreamingResponse(body, status_code=response.status, media_type="text/event-stream")


async def _hang(hub: ReplayHub, request: Request, parked: Parked, streaming: bool) -> Response:
    if streaming:  # send the headers first: the product sees a started but stalled stream
        body = hub.relay(request, chunks_of(()), 0, Hold(parked, 0))
        return StreamingResponse(body, media_type="text/event-stream")
    if await hub.park(request, parked):
        return Response(status_code=499)  # nobody is listening any more
    return provider_error(503, "replay: hang released because its scenario scope closed", "replay_released")
