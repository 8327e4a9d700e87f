"""The one error type the console raises for client-visible failures, and the handlers that
turn every failure into the JSON shape `{code, message, ...}` documented in docs/console.md."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.exceptions import HTTPException

from agent_builder.console.contract import allowed_methods

logger = logging.getLogger(__name__)


class ApiError(Exception):
    """A failure the client can act on: rendered as `{code, message, **extra}` with `status_code`."""

    def __init__(
        self, status_code: int, code: str, message: str, headers: dict[str, str] | None = None, **extra: Any
    ) -> None:
        super().__init__(message)
        self.status_code = status_code
        self.code = code
        self.message = message
        self.headers = headers or {}
        self.extra = extra


def not_found(what: str) -> ApiError:
    return ApiError(404, "not_found", f"{what} not found.")


# Paths whose clients expect JSON even for unknown routes; everything else is a browser page.
_API_PREFIXES = ("/console/api", "/v1", "/__test__", "/internal", "/healthz", "/openapi.json")

# Codes for the HTTPExceptions raised by the framework itself (body parsing, routing, size limits).
_CODES_BY_STATUS = {
    400: "invalid_request",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
}


def is_api_path(path: str) -> bool:
    if any(path == prefix or path.startswith(prefix + "/") for prefix in _API_PREFIXES):
        return True
    parts = path.split("/")
    # /chat/{site_token}/api/...: the web app's JSON API (a decoded %2F may add segments).
    return len(parts) >= 4 and parts[1] == "chat" and "api" in parts[3:]


def _field_name(loc: Sequence[int | str]) -> str:
    parts = [str(part) for part in loc]
    if parts and parts[0] in ("body", "query", "path", "header", "cookie"):
        source, parts = parts[0], parts[1:]
        if not parts or (source == "body" and parts[0].isdigit() and len(parts) == 1):
            return "body"
    return ".".join(parts)


def _field_message(error: dict[str, Any]) -> str:
    if error.get("type") == "json_invalid":
        detail = (error.get("ctx") or {}).get("error", "")
        # FastAPI puts the parser's offset after "body" in loc: where a client looks for the mistake.
        offset = next((part for part in error.get("loc", ())[1:] if isinstance(part, int)), None)
        where = f" at character {offset + 1}" if offset is not None else ""
        return (
            f"Request body is not valid JSON ({detail}{where})."
            if detail
            else "Request body is not valid JSON."
        )
    message = str(error.get("msg", "Invalid value"))
    # pydantic prefixes messages of custom validators; users need only the reason.
    return message.removeprefix("Value error, ")


def _error_response(request: Request, status_code: int, code: str, message: str, **extra: Any) -> Response:
    if status_code == 404 and not is_api_path(request.url.path):
        return HTMLResponse(_NOT_FOUND_PAGE, status_code=404)
    return JSONResponse({"code": code, "message": message, **extra}, status_code=status_code)


async def _api_error_handler(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    response = _error_response(request, exc.status_code, exc.code, exc.message, **exc.extra)
    response.headers.update(exc.headers)
    return response


async def _validation_error_handler(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)
    errors = [
        {"field": _field_name(error.get("loc", ())), "message": _field_message(error)}
        for error in exc.errors()
    ]
    first = errors[0] if errors else {"field": "body", "message": "Invalid request."}
    summary = f"{first['field']}: {first['message']}"
    if len(errors) > 1:
        summary += f" (and {len(errors) - 1} more)"
    return JSONResponse({"code": "invalid_request", "message": summary, "errors": errors}, status_code=422)


async def _http_error_handler(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if exc.status_code == 413 and request.headers.get("content-type", "").startswith("multipart/"):
        code, message = "file_too_large", "The file is larger than the size limit."
    else:
        code = _CODES_BY_STATUS.get(exc.status_code, "http_error")
        detail: object = exc.detail  # typed str, but fastapi's HTTPException (a subclass) takes any JSON
        message = detail if isinstance(detail, str) else "Request failed."
        if exc.status_code == 404:
            message = "No such route."
    response = _error_response(request, exc.status_code, code, message)
    if exc.headers:
        response.headers.update(exc.headers)
    if exc.status_code == 405:
        response.headers["Allow"] = allowed_methods(request)
    return response


async def _unexpected_error_handler(request: Request, exc: Exception) -> Response:
    logger.exception("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    return JSONResponse({"code": "internal_error", "message": "Internal server error."}, status_code=500)


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(ApiError, _api_error_handler)
    app.add_exception_handler(RequestValidationError, _validation_error_handler)
    app.add_exception_handler(HTTPException, _http_error_handler)
    app.add_exception_handler(Exception, _unexpected_error_handler)


_NOT_FOUND_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Page not found</title></head>
<body><main><h1>Page not found</h1><p>There is nothing at this address.</p>
<p><a href="/agents">Go to Agents</a></p></main></body></html>
"""
