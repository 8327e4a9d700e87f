"""Client-visible failures of the runtime and shellctl APIs, rendered as JSON `{code, message}`."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException

logger = logging.getLogger(__name__)


class ApiError(Exception):
    def __init__(self, status_code: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status_code = status_code
        self.code = code
        self.message = message


def _json_error(status_code: int, code: str, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"code": code, "message": message, **extra}, status_code=status_code)


async def _api_error(_: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return _json_error(exc.status_code, exc.code, exc.message)


async def _validation_error(_: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)
    # Field and reason only: the rejected input may be an API key.
    errors = [
        {
            "field": _field(error),
            "message": str(error.get("msg", "Invalid value")).removeprefix("Value error, "),
        }
        for error in exc.errors()
    ]
    message = f"{errors[0]['field']}: {errors[0]['message']}" if errors else "Invalid request."
    return _json_error(422, "invalid_request", message, errors=errors)


def _field(error: Any) -> str:
    # Malformed JSON is located by its character offset ("body", 12): the field is the body itself.
    if error.get("type") == "json_invalid":
        return "body"
    return ".".join(str(part) for part in error.get("loc", ())[1:]) or "body"


async def _http_error(_: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
    message = "No such route." if exc.status_code == 404 else str(exc.detail)
    return _json_error(exc.status_code, code, message)


async def _unexpected(request: Request, exc: Exception) -> Response:
    logger.exception("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    return _json_error(500, "internal_error", "Internal server error.")


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(ApiError, _api_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(HTTPException, _http_error)
    app.add_exception_handler(Exception, _unexpected)
