"""shellctl HTTP API: exec in a session's workspace, read/write its files, remove it."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Annotated

from fastapi import FastAPI, Query, Request, Response
from fastapi.responses import FileResponse
from pydantic import BaseModel, Field

from agent_builder.service_errors import ApiError, install_error_handlers
from agent_builder.shellctl.execution import run_command
from agent_builder.shellctl.workspaces import Workspaces

logger = logging.getLogger(__name__)

MAX_TIMEOUT_S = 120.0
MAX_COMMAND_CHARS = 100_000
MAX_FILE_BYTES = 1 << 20


class ExecRequest(BaseModel):
    command: str = Field(min_length=1, max_length=MAX_COMMAND_CHARS)
    timeout_s: float = Field(default=10.0, gt=0, le=MAX_TIMEOUT_S)


class ExecResponse(BaseModel):
    exit_code: int | None
    stdout: str
    stderr: str
    timed_out: bool
    truncated: bool
    duration_ms: int


class FileWritten(BaseModel):
    path: str
    size: int


PathQuery = Annotated[str, Query(description="file path relative to the workspace")]


def create_app(workspaces_root: Path) -> FastAPI:
    workspaces = Workspaces(workspaces_root)
    app = FastAPI(title="agent_builder shellctl", version="1.0.0", docs_url=None, redoc_url=None)
    install_error_handlers(app)

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.post("/sessions/{session_id}/exec")
    async def exec_command(session_id: str, body: ExecRequest) -> ExecResponse:
        workspace = workspaces.ensure(session_id)
        result = await run_command(body.command, workspace, body.timeout_s)
        # Never the command or its output: either may carry secrets.
        logger.info(
            "session %s: exec exit=%s timed_out=%s in %d ms",
            session_id,
            result.exit_code,
            result.timed_out,
            result.duration_ms,
        )
        return ExecResponse(**vars(result))

    @app.get("/sessions/{session_id}/files", response_class=FileResponse)
    async def read_file(session_id: str, path: PathQuery) -> FileResponse:
        target = workspaces.file(session_id, path)
        if not target.is_file():
            raise ApiError(404, "file_not_found", f"No file at {path!r} in this workspace.")
        return FileResponse(target, media_type="application/octet-stream")

    @app.put("/sessions/{session_id}/files")
    async def write_file(session_id: str, path: PathQuery, request: Request) -> FileWritten:
        workspaces.ensure(session_id)
        target = workspaces.file(session_id, path)
        if target.is_dir():
            raise ApiError(400, "invalid_path", f"{path!r} is a folder.")
        content = bytearray()
        async for chunk in request.stream():
            content += chunk
            if len(content) > MAX_FILE_BYTES:
                raise ApiError(413, "file_too_large", f"Files are limited to {MAX_FILE_BYTES} bytes.")
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
        except OSError as exc:  # e.g. a parent is a file, or the command made it read-only
            raise ApiError(400, "invalid_path", f"Cannot write {path!r}: {exc.strerror}.") from None
        return FileWritten(path=path, size=len(content))

    @app.delete("/sessions/{session_id}", status_code=204)
    async def delete_session(session_id: str) -> Response:
        workspaces.remove(session_id)
        return Response(status_code=204)

    return app
