"""What the route modules share: dependencies, documented error responses, receiving uploads."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Annotated, Any

from fastapi import Depends, Request, UploadFile

from agent_builder.console.config import ConsoleConfig
from agent_builder.console.db import Database
from agent_builder.console.errors import ApiError
from agent_builder.console.indexing import IndexingWorker
from agent_builder.console.schemas.errors import ErrorResponse, ValidationErrorResponse


# The dependencies that only read app state are async: FastAPI runs a sync one in the thread
# pool, a thread hop per request for returning an attribute. App state is untyped: each binds
# what it reads to the type create_app stored there.
async def _db(request: Request) -> Database:
    db: Database = request.app.state.db
    return db


async def _config(request: Request) -> ConsoleConfig:
    config: ConsoleConfig = request.app.state.config
    return config


async def _indexer(request: Request) -> IndexingWorker:
    indexer: IndexingWorker = request.app.state.indexer
    return indexer


async def _public_origin(request: Request) -> str:
    config: ConsoleConfig = request.app.state.config
    return config.public_url or str(request.base_url).rstrip("/")


DbDep = Annotated[Database, Depends(_db)]
ConfigDep = Annotated[ConsoleConfig, Depends(_config)]
IndexerDep = Annotated[IndexingWorker, Depends(_indexer)]
OriginDep = Annotated[str, Depends(_public_origin)]

_DESCRIPTIONS = {
    400: "Bad input",
    401: "Not signed in, or invalid credentials / API key",
    403: "Access switched off",
    404: "Unknown resource",
    409: "Conflict",
    413: "Too large",
    415: "Unsupported file type",
    422: "Body or query failed validation",
    429: "Too many failed attempts, or too many requests at once: wait for Retry-After seconds",
    502: "The agent run failed (model provider or runtime)",
    503: "A dependency (the agent runtime, or the sandbox) is unavailable",
}


def errors(
    *statuses: int, models: Mapping[int, type[ErrorResponse]] | None = None
) -> dict[int | str, dict[str, Any]]:
    """OpenAPI `responses` for these error statuses; `models` names richer bodies than ErrorResponse."""
    chosen: dict[int, type[ErrorResponse]] = {422: ValidationErrorResponse, **(models or {})}
    return {
        status: {"model": chosen.get(status, ErrorResponse), "description": _DESCRIPTIONS[status]}
        for status in statuses
    }


def receive_upload(upload: UploadFile, limit: int, check_type: Callable[[str], object]) -> tuple[str, bytes]:
    """An uploaded file's clean name and bytes, refused cheapest first: a missing name, a type
    `check_type` refuses (it raises ApiError), then a size over `limit`."""
    name = _clean_file_name(upload.filename)
    check_type(name)
    return name, _read_upload(upload, limit)


async def receive_upload_async(
    upload: UploadFile, limit: int, check_type: Callable[[str], object]
) -> tuple[str, bytes]:
    """`receive_upload` for async handlers: a file spooled to disk is read in a worker thread, one
    held in memory (up to 1 MiB) on the event loop, so the handler never blocks the loop."""
    name = _clean_file_name(upload.filename)
    check_type(name)
    data = await upload.read(limit + 1)
    _check_size(data, limit)
    return name, data


def _clean_file_name(raw: str | None) -> str:
    """The last path component without control characters (browsers may send full paths)."""
    name = (raw or "").replace("\\", "/").rsplit("/", 1)[-1]
    name = "".join(char for char in name if char >= " " and char != "\x7f").strip()[:255]
    if not name:
        raise ApiError(400, "invalid_request", "The uploaded file has no name.")
    return name


def _read_upload(upload: UploadFile, limit: int) -> bytes:
    """The uploaded bytes, refusing files over `limit` without reading more than limit + 1."""
    data = upload.file.read(limit + 1)
    _check_size(data, limit)
    return data


def _check_size(data: bytes, limit: int) -> None:
    if len(data) > limit:
        raise ApiError(413, "file_too_large", f"The file is larger than the {_human_size(limit)} limit.")


def _human_size(size: int) -> str:
    for unit, scale in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= scale:
            return f"{size / scale:.3g} {unit}"
    return f"{size} bytes"
