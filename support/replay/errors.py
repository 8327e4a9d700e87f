"""Provider-style (OpenAI-shaped) error answers: `{"error": {"message", "type", "code"}}`."""

from __future__ import annotations

from typing import Any

from fastapi.responses import JSONResponse

from support.replay.scope import Miss


def provider_error(status: int, message: str, kind: str, code: str | None = None) -> JSONResponse:
    return JSONResponse({"error": {"message": message, "type": kind, "code": code}}, status_code=status)


def patch_error_body(status: int) -> dict[str, Any]:
    """What a fail patch without its own body answers: the provider's error for that status."""
    message, kind, code = {
        401: ("Incorrect API key provided (replay patch)", "invalid_request_error", "invalid_api_key"),
        429: ("Rate limit reached (replay patch)", "requests", "rate_limit_exceeded"),
    }.get(
        status,
        (f"The server had an error processing your request (replay patch, {status})", "server_error", None),
    )
    return {"error": {"message": message, "type": kind, "code": code}}


def miss_response(miss: Miss) -> JSONResponse:
    # 404: SDKs do not retry it, so one divergence yields one miss rather than a retry storm.
    return provider_error(404, f"replay miss [{miss.key}]: {miss.reason}", "replay_miss", "replay_miss")
