"""The replay server's state: the open scenario scope, the calls parked by hang patches and the
misses seen outside any scope, with the control operations on them (`/__replay/...`).

One hub per server; a server holds one scenario scope at a time.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
from fastapi import Request
from pydantic import BaseModel, Field

from support.replay.cassette import Cassette, cassette_relpath, load_cassette, write_cassette
from support.replay.config import ReplayConfig
from support.replay.matching import AnyRequest, ChatRequest, key_of
from support.replay.scope import (
    AnyPatch,
    Miss,
    Scope,
    ScopeError,
    ScopeReport,
    Target,
)
from support.replay.sse import relay

_PARK_POLL_S = 0.02


@dataclass
class Parked:
    """A call held open by a hang patch; listed by `GET /__replay/state` while it waits."""

    id: int
    scenario: str
    target: Target
    call: int
    call_site: str
    key: str
    since: str
    released: bool = field(default=False, repr=False)


@dataclass(frozen=True)
class Hold:
    """A hang patch on a stream: `parked` waits once `after_chunks` chunks were sent."""

    parked: Parked
    after_chunks: int


class OpenScope(BaseModel):
    name: str = Field(min_length=1)
    feature: str | None = None  # feature file path, e.g. features/agent/chat.feature
    cassette: str | None = None  # explicit cassette path (relative to the cassettes folder)
    pace_ms: int | None = Field(default=None, ge=0)


class ReplayHub:
    def __init__(self, config: ReplayConfig) -> None:
        self.config = config
        self.scope: Scope | None = None
        self.parked: dict[int, Parked] = {}
        self.unscoped_misses: list[Miss] = []
        self.stopping = False
        self._client: httpx.AsyncClient | None = None
        self._ids = itertools.count()

    @property
    def client(self) -> httpx.AsyncClient:
        """The upstream client, created on first use: replay mode never has one."""
        if self._client is None:
            self._client = httpx.AsyncClient(timeout=httpx.Timeout(300.0, connect=10.0))
        return self._client

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()

    def open_scope(self, request: OpenScope) -> dict[str, Any]:
        if self.scope is not None:
            raise ScopeError(
                f'scenario "{self.scope.name}" is still open: close it first (DELETE /__replay/scenario)'
            )
        relative = (
            Path(request.cassette)
            if request.cassette
            else Path(cassette_relpath(request.feature, request.name))
        )
        path = relative if relative.is_absolute() else self.config.cassettes / relative
        cassette = load_cassette(path) if self.config.mode == "replay" and path.exists() else None
        pace_ms = self.config.pace_ms if request.pace_ms is None else request.pace_ms
        self.scope = Scope(request.name, request.feature, path, self.config.mode, pace_ms, cassette)
        return {
            "scenario": request.name,
            "cassette": str(path),
            "mode": self.config.mode,
            "entries": len(self.scope.entries),
            "cassette_found": cassette is not None,
        }

    def close_scope(self) -> ScopeReport:
        scope = self.scope
        if scope is None:
            raise ScopeError("no scenario scope is open")
        self.scope = None
        for parked in self.parked.values():
            if parked.scenario == scope.name:
                parked.released = True
        written = None
        if self.config.mode == "record":
            write_cassette(
                scope.cassette_path, self._cassette(scope), tuple(scope.secrets | {self.config.api_key or ""})
            )
            written = scope.cassette_path
        return scope.report(written)

    def scope_report(self) -> ScopeReport:
        """The open scope so far (misses up to now), without closing it: the hooks ask after each step."""
        if self.scope is None:
            raise ScopeError("no scenario scope is open")
        return self.scope.report(None)

    def add_patch(self, patch: AnyPatch) -> AnyPatch:
        if self.scope is None:
            raise ScopeError("patches belong to a scenario: open a scope first (POST /__replay/scenario)")
        return self.scope.add_patch(patch)

    def state(self) -> dict[str, Any]:
        scope = self.scope
        return {
            "mode": self.config.mode,
            "scope": None
            if scope is None
            else {
                "scenario": scope.name,
                "cassette": str(scope.cassette_path),
                "calls": scope.calls,
                "misses": len(scope.misses),
            },
            "parked": [{k: v for k, v in asdict(p).items() if k != "released"} for p in self.parked.values()],
            "unscoped_misses": [miss.model_dump() for miss in self.unscoped_misses],
        }

    def stop(self) -> None:
        """Releases every parked hang so a graceful shutdown does not wait on them."""
        self.stopping = True
        for parked in self.parked.values():
            parked.released = True

    def models(self) -> list[str]:
        """In replay mode: the configured models plus every model some cassette was recorded with."""
        names = set(self.config.models)
        for path in self.config.cassettes.rglob("*.json"):
            try:
                model = json.loads(path.read_text(encoding="utf-8")).get("model")
            except (OSError, ValueError, AttributeError):
                continue  # a broken cassette fails loudly when its scenario opens it, not here
            if isinstance(model, str):
                names.add(model)
        return sorted(names)

    def new_parked(self, scope: Scope, target: Target, call: int, request: AnyRequest) -> Parked:
        return Parked(
            id=next(self._ids),
            scenario=scope.name,
            target=target,
            call=call,
            call_site=request.call_site,
            key=key_of(request),
            since=datetime.now(UTC).isoformat(timespec="milliseconds"),
        )

    async def park(self, request: Request, parked: Parked) -> bool:
        """Waits until the client disconnects (True) or the hang is released (False)."""
        self.parked[parked.id] = parked
        try:
            while not (parked.released or self.stopping):
                if await request.is_disconnected():
                    return True
                await asyncio.sleep(_PARK_POLL_S)
            return False
        finally:
            del self.parked[parked.id]

    def relay(
        self,
        request: Request,
        chunks: AsyncGenerator[Any, None],
        pace_ms: int,
        hold: Hold | None,
        on_complete: Callable[[], None] | None = None,
    ) -> AsyncIterator[bytes]:
        """An SSE body of `chunks`; with `hold`, it parks the call after `hold.after_chunks` of them."""
        if hold is None:
            return relay(chunks, pace_ms, on_complete=on_complete)
        return relay(chunks, pace_ms, lambda: self.park(request, hold.parked), hold.after_chunks)

    def _cassette(self, scope: Scope) -> Cassette:
        models = (entry.request.model for entry in scope.recorded if isinstance(entry.request, ChatRequest))
        return Cassette(
            scenario=scope.name,
            feature=scope.feature,
            recorded_at=datetime.now(UTC).isoformat(timespec="seconds"),
            recorded_from=self.config.recorded_from
            or urlsplit(self.config.upstream or "").hostname
            or "unknown",
            model=next((model for model in models if model), None),
            entries=scope.recorded,
        )
