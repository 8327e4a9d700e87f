"""shellctl HTTP API: exec in a session's workspace, read/write its files, remove it, remove all
workspaces of an owner."""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Annotated

from fastapi import FastAPI, Query, Request, Response
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, Field, SecretStr, StringConstraints, field_validator
from starlette.types import Lifespan

from agent_builder.bearer_auth import BearerTokenMiddleware
from agent_builder.service_errors import ApiError, install_error_handlers
from agent_builder.shellctl import files, uid_range
from agent_builder.shellctl.config import ShellctlConfig
from agent_builder.shellctl.disk import BROKEN, DiskError, Disks
from agent_builder.shellctl.execution import run_command
from agent_builder.shellctl.sandbox import Sandbox, SandboxUnavailable
from agent_builder.shellctl.workspaces import Workspaces, check_name

logger = logging.getLogger(__name__)

MAX_TIMEOUT_S = 120.0
MAX_COMMAND_CHARS = 100_000
MAX_FILE_BYTES = 1 << 20


EnvName = Annotated[str, StringConstraints(pattern=r"^[A-Z_][A-Z0-9_]{0,63}$")]
EnvValue = Annotated[str, StringConstraints(max_length=4000, pattern=r"^[^\x00]*$")]


class ExecRequest(BaseModel):
    command: str = Field(min_length=1, max_length=MAX_COMMAND_CHARS)
    timeout_s: float = Field(default=10.0, gt=0, le=MAX_TIMEOUT_S)
    # Extra variables for the command (the agent's plain ones); the sandbox's own PATH, HOME, LANG
    # and TERM always win, and nothing of shellctl's own environment is added.
    env: dict[EnvName, EnvValue] = Field(default={}, max_length=100)

    @field_validator("command")
    @classmethod
    def _runnable(cls, command: str) -> str:
        # A process argument is a C string of bytes: no NUL, and text that encodes (no lone surrogates).
        if "\x00" in command:
            raise ValueError("the command must not contain a NUL byte")
        try:
            command.encode()
        except UnicodeEncodeError:
            raise ValueError("the command must be valid UTF-8 text") from None
        return command


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


class OwnerRemoved(BaseModel):
    owner: str
    removed: int


class Health(BaseModel):
    status: str
    isolation: str
    workspace_bytes: int | None  # each workspace's disk quota; None: none (not root, or switched off)


PathQuery = Annotated[str, Query(description="file path relative to the workspace")]
OwnerQuery = Annotated[
    str | None, Query(description="whom the workspace belongs to (for the console: the agent's id)")
]


def create_app(workspaces_root: Path, config: ShellctlConfig, sandbox: Sandbox) -> FastAPI:
    """The app, once `sandbox` started a command the way it will start every one, in a workspace
    made like every other (else raises SandboxUnavailable): shellctl never serves without the
    isolation and the quota it reports."""
    workspaces = _workspaces(workspaces_root, config, sandbox)
    app = FastAPI(
        title="agent_builder shellctl",
        version="1.0.0",
        lifespan=_lifespan(workspaces, config),
        docs_url=None,
        redoc_url=None,
    )
    install_error_handlers(app)
    if config.token:
        app.add_middleware(
            BearerTokenMiddleware, token=SecretStr(config.token), open_paths={"/healthz"}, service="shellctl"
        )
    quota = workspaces.quota

    @app.get("/healthz")
    async def healthz() -> Health:
        return Health(status="ok", isolation=sandbox.isolation, workspace_bytes=quota)

    @app.post("/sessions/{session_id}/exec")
    async def exec_command(session_id: str, body: ExecRequest, owner: OwnerQuery = None) -> ExecResponse:
        with (
            workspaces.lease(*_key(owner, session_id), create=True) as target,
            sandbox.launch(body.command, target, body.env) as launch,
        ):
            result = await run_command(launch, body.timeout_s)
        # Never the command or its output: either may carry secrets.
        logger.info(
            "session %s: exec exit=%s timed_out=%s in %d ms",
            session_id,
            result.exit_code,
            result.timed_out,
            result.duration_ms,
        )
        return ExecResponse(**vars(result))

    _add_file_routes(app, workspaces)

    @app.delete("/sessions/{session_id}", status_code=204)
    async def delete_session(session_id: str, owner: OwnerQuery = None) -> Response:
        workspaces.remove(*_key(owner, session_id))
        return Response(status_code=204)

    @app.delete("/owners/{owner}")
    async def delete_owner(owner: str) -> OwnerRemoved:
        removed = workspaces.remove_owner(check_name(owner, "invalid_owner", "Owners"))
        logger.info("owner %s: %d workspaces removed", owner, removed)
        return OwnerRemoved(owner=owner, removed=removed)

    return app


def _add_file_routes(app: FastAPI, workspaces: Workspaces) -> None:
    """Reading a session's file (never creates its workspace) and writing one."""

    @app.get("/sessions/{session_id}/files", response_class=StreamingResponse)
    async def read_file(session_id: str, path: PathQuery, owner: OwnerQuery = None) -> StreamingResponse:
        # The lease ends once the file is open: an open file keeps its file system alive.
        with workspaces.lease(*_key(owner, session_id), create=False) as target:
            file, size = files.open_for_reading(target, path)
        return StreamingResponse(
            files.chunks(file), media_type="application/octet-stream", headers={"Content-Length": str(size)}
        )

    @app.put("/sessions/{session_id}/files")
    async def write_file(
        session_id: str, path: PathQuery, request: Request, owner: OwnerQuery = None
    ) -> FileWritten:
        key = _key(owner, session_id)
        content = bytearray()
        async for chunk in request.stream():
            content += chunk
            if len(content) > MAX_FILE_BYTES:
                raise ApiError(413, "file_too_large", f"Files are limited to {MAX_FILE_BYTES} bytes.")
        with workspaces.lease(*key, create=True) as target:
            files.write(target, path, bytes(content))
        return FileWritten(path=path, size=len(content))


def _workspaces(root: Path, config: ShellctlConfig, sandbox: Sandbox) -> Workspaces:
    """The workspaces, with disk quotas when shellctl runs as root, once the probe ran in one."""
    quota = config.workspace_bytes if os.geteuid() == 0 else 0
    if config.workspace_bytes and not quota:
        logger.warning(
            "no workspace disk quota: it needs shellctl to run as root (loop mounts); commands can fill "
            "the disk of the workspaces folder"
        )
    try:
        disks = Disks.find(quota) if quota else None
    except DiskError as exc:  # a tool is missing: the message names its package
        raise SandboxUnavailable(str(exc)) from None
    try:
        uids = uid_range.claim(root, config.uid_base) if sandbox.owners_run_as_uids else None
    except uid_range.UidRangeTaken as exc:
        raise SandboxUnavailable(str(exc)) from None
    try:
        workspaces = Workspaces(root, uids, disks)
        with workspaces.scratch() as scratch:
            sandbox.probe(scratch)
    except DiskError as exc:
        raise SandboxUnavailable(BROKEN.format(detail=exc)) from None
    return workspaces


def _lifespan(workspaces: Workspaces, config: ShellctlConfig) -> Lifespan[FastAPI]:
    """While serving, idle workspaces are removed; at stop, nothing stays mounted."""

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        sweeper = asyncio.create_task(_remove_idle_workspaces(workspaces, config))
        try:
            yield
        finally:
            sweeper.cancel()
            with suppress(asyncio.CancelledError):
                await sweeper
            workspaces.unmount_all()

    return lifespan


async def _remove_idle_workspaces(workspaces: Workspaces, config: ShellctlConfig) -> None:
    """Every so often, remove the workspaces unused for `config.idle_seconds` (never one in use)."""
    while True:
        await asyncio.sleep(config.sweep_interval_s)
        try:
            removed = workspaces.remove_idle(time.time() - config.idle_seconds)
        except Exception:  # the next round tries again; the service stays up
            logger.exception("removing idle workspaces failed")
            continue
        if removed:
            logger.info("%d idle workspaces removed", removed)


def _key(owner: str | None, session_id: str) -> tuple[str, str]:
    """The index key of a session's workspace; no owner is the empty owner."""
    owner = "" if owner is None else check_name(owner, "invalid_owner", "Owners")
    return owner, check_name(session_id, "invalid_session_id", "Session ids")
