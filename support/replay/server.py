"""The OpenAI-compatible record/replay HTTP server.

Routes:
- `GET /v1/models`, `POST /v1/chat/completions` (JSON or `stream: true` SSE);
- `GET|POST /search/{path}`: a JSON passthrough for a web-search provider (call site `tool:web_search`);
- `/__replay/...`: the control API (scenario scope, patches, state, health).

Modes: `replay` serves cassettes and never opens a network connection; `record` forwards to the
upstream with the key from `E2E_STABLE_MODEL_API_KEY` and writes the scenario's cassette when its
scope closes; `live` forwards and records nothing. Patches apply in every mode.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import socket
import threading
import time
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Self
from urllib.parse import urlsplit

import httpx
import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse
from pydantic import BaseModel, Field, TypeAdapter

from support.replay.cassette import (
    Cassette,
    CassetteError,
    Entry,
    JsonResponse,
    RecordedResponse,
    SseResponse,
    cassette_relpath,
    load_cassette,
    write_cassette,
)
from support.replay.matching import (
    WEB_SEARCH_CALL_SITE,
    ChatRequest,
    HttpRequest,
    call_site_of,
    chat_request,
    http_request,
    key_of,
)
from support.replay.scope import (
    FailPatch,
    HangPatch,
    Miss,
    Mode,
    Patch,
    ReplacePatch,
    Scope,
    ScopeError,
    ScopeReport,
    Target,
    build_miss,
)
from support.replay.scrub import is_secret_field

API_KEY_ENV = "E2E_STABLE_MODEL_API_KEY"
READY_PREFIX = "REPLAY_READY"
_PARK_POLL_S = 0.02
_NOT_FORWARDED = frozenset({"host", "content-length", "connection", "accept-encoding", "x-model-caller"})
_PATCH = TypeAdapter(Patch)


@dataclass(frozen=True)
class ReplayConfig:
    cassettes: Path
    mode: Mode = "replay"
    upstream: str | None = None  # OpenAI-compatible base URL, e.g. https://api.openai.com/v1
    search_upstream: str | None = None  # base URL that `/search/{path}` is forwarded under
    api_key: str | None = None
    pace_ms: int = 0
    recorded_from: str | None = None  # cassette label; defaults to the upstream's host
    # Listed by `GET /v1/models` in replay mode even before a cassette uses them, so the seed stage
    # can register and activate its models on a fresh checkout.
    models: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.mode != "replay" and not (self.upstream and self.api_key):
            raise ValueError(
                f"mode {self.mode} forwards to the provider: it needs --upstream and {API_KEY_ENV}"
            )


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
class _Call:
    """A call being recorded into a scope."""

    scope: Scope
    target: Target
    number: int

    def problem(self, request: ChatRequest | HttpRequest, reason: str) -> None:
        self.scope.add_problem(request, self.target, self.number, reason)


@dataclass(frozen=True)
class _Upstream:
    method: str
    url: str
    content: bytes
    headers: dict[str, str]


class OpenScope(BaseModel):
    name: str = Field(min_length=1)
    feature: str | None = None  # feature file path, e.g. features/agent/chat.feature
    cassette: str | None = None  # explicit cassette path (relative to the cassettes folder)
    pace_ms: int | None = Field(default=None, ge=0)


def provider_error(status: int, message: str, kind: str, code: str | None = None) -> JSONResponse:
    return JSONResponse({"error": {"message": message, "type": kind, "code": code}}, status_code=status)


def _patch_error_body(status: int) -> dict[str, Any]:
    message, kind, code = {
        401: ("Incorrect API key provided (replay patch)", "invalid_request_error", "invalid_api_key"),
        429: ("Rate limit reached (replay patch)", "requests", "rate_limit_exceeded"),
    }.get(
        status,
        (f"The server had an error processing your request (replay patch, {status})", "server_error", None),
    )
    return {"error": {"message": message, "type": kind, "code": code}}


def _miss_response(miss: Miss) -> JSONResponse:
    # 404: SDKs do not retry it, so one divergence yields one miss rather than a retry storm.
    return provider_error(404, f"replay miss [{miss.key}]: {miss.reason}", "replay_miss", "replay_miss")


def _encode_sse(chunk: Any) -> bytes:
    data = chunk if isinstance(chunk, str) else json.dumps(chunk, ensure_ascii=False, separators=(",", ":"))
    return f"data: {data}\n\n".encode()


def _decode_sse(data: str) -> Any:
    try:
        value = json.loads(data)
    except ValueError:
        return data
    return value if isinstance(value, dict | list) else data  # keep scalars verbatim (e.g. [DONE])


async def _sse_events(response: httpx.Response) -> AsyncIterator[Any]:
    data: list[str] = []
    async for line in response.aiter_lines():
        if line.startswith("data:"):
            data.append(line[5:].removeprefix(" "))
        elif not line and data:
            yield _decode_sse("\n".join(data))
            data = []
    if data:
        yield _decode_sse("\n".join(data))


async def _items(chunks: Iterable[Any]) -> AsyncGenerator[Any, None]:
    for chunk in chunks:
        yield chunk


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


class ReplayHub:
    """Server state: the open scenario scope, parked hangs and misses seen outside any scope."""

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

    # --- control -------------------------------------------------------------------------------

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

    def add_patch(self, patch: FailPatch | HangPatch | ReplacePatch) -> FailPatch | HangPatch | ReplacePatch:
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

    # --- calls ---------------------------------------------------------------------------------

    async def handle(
        self,
        request: Request,
        target: Target,
        normalized: ChatRequest | HttpRequest,
        upstream: _Upstream | None,
    ) -> Response:
        scope = self.scope
        if scope is None:
            if self.config.mode == "replay":
                miss = build_miss(normalized, target, None, "no scenario scope is open", [])
                self.unscoped_misses.append(miss)
                return _miss_response(miss)
            return await self._forward(request, normalized, upstream, None, None, None)
        call = scope.next_call(target)
        patch = scope.take_patch(target, call)
        if isinstance(patch, FailPatch):
            body = patch.body if patch.body is not None else _patch_error_body(patch.status)
            return JSONResponse(body, status_code=patch.status)
        if isinstance(patch, ReplacePatch):
            return self._serve(request, patch.entry, scope.pace_ms, None, None)
        streaming = isinstance(normalized, ChatRequest) and normalized.stream
        parked = None
        if isinstance(patch, HangPatch):
            parked = Parked(
                id=next(self._ids),
                scenario=scope.name,
                target=target,
                call=call,
                call_site=normalized.call_site,
                key=key_of(normalized),
                since=datetime.now(UTC).isoformat(timespec="milliseconds"),
            )
            if patch.after_chunks == 0 or not streaming:
                return await self._hang(request, parked, streaming)
        park_after = patch.after_chunks if isinstance(patch, HangPatch) else None
        if self.config.mode != "replay":
            recording = _Call(scope, target, call) if self.config.mode == "record" else None
            return await self._forward(request, normalized, upstream, recording, parked, park_after)
        found = scope.take(normalized, target, call)
        if isinstance(found, Miss):
            return _miss_response(found)
        return self._serve(request, found.response, scope.pace_ms, parked, park_after)

    def _serve(
        self,
        request: Request,
        response: RecordedResponse,
        pace_ms: int,
        parked: Parked | None,
        park_after: int | None,
    ) -> Response:
        if isinstance(response, JsonResponse):
            return JSONResponse(response.body, status_code=response.status)
        body = self._relay(request, _items(response.chunks), pace_ms, parked, park_after)
        return StreamingResponse(body, status_code=response.status, media_type="text/event-stream")

    async def _hang(self, request: Request, parked: Parked, streaming: bool) -> Response:
        if streaming:  # send the headers first: the product sees a started but stalled stream
            body = self._relay(request, _items(()), 0, parked, 0)
            return StreamingResponse(body, media_type="text/event-stream")
        if await self._park(request, parked):
            return Response(status_code=499)  # nobody is listening any more
        return provider_error(
            503, "replay: hang released because its scenario scope closed", "replay_released"
        )

    async def _park(self, request: Request, parked: Parked) -> bool:
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

    async def _relay(
        self,
        request: Request,
        chunks: AsyncGenerator[Any, None],
        pace_ms: int,
        parked: Parked | None,
        park_after: int | None,
        on_complete: Callable[[], None] | None = None,
    ) -> AsyncIterator[bytes]:
        """SSE body: chunks in order, paced, optionally parking after `park_after` of them."""
        try:
            sent = 0
            async for chunk in chunks:
                if parked and sent == park_after:
                    break
                if sent and pace_ms:
                    await asyncio.sleep(pace_ms / 1000)
                yield _encode_sse(chunk)
                sent += 1
            else:
                if not parked and on_complete:
                    on_complete()
            if parked:  # also when the recording had fewer chunks: the stream stays open either way
                await self._park(request, parked)
        finally:
            await chunks.aclose()  # releases the upstream response when relaying

    async def _forward(
        self,
        request: Request,
        normalized: ChatRequest | HttpRequest,
        upstream: _Upstream | None,
        recording: _Call | None,
        parked: Parked | None,
        park_after: int | None,
    ) -> Response:
        """Relays the call to the provider; with `recording`, records the answer into its scope.

        A failure to record (no or failing upstream, non-JSON answer) is a scope problem: the
        cassette would silently lack that call.
        """
        if upstream is None:
            if recording:
                recording.problem(normalized, "no upstream is configured for this route")
            return provider_error(502, "replay: no upstream is configured for this route", "upstream_error")
        if recording:
            recording.scope.secrets |= _request_secrets(request, upstream.content)
        try:
            sent = self.client.build_request(
                upstream.method, upstream.url, content=upstream.content, headers=upstream.headers
            )
            response = await self.client.send(sent, stream=True)
        except httpx.HTTPError as error:
            if recording:
                recording.problem(normalized, f"upstream {upstream.url} failed: {error!r}")
            return provider_error(502, f"replay: upstream failed: {error!r}", "upstream_error")

        def keep(recorded: RecordedResponse) -> None:
            if recording:
                entry = Entry(
                    key=key_of(normalized),
                    call_site=normalized.call_site,
                    request=normalized,
                    response=recorded,
                )
                recording.scope.recorded.append(entry)

        if response.headers.get("content-type", "").startswith("text/event-stream"):
            seen: list[Any] = []

            async def events() -> AsyncGenerator[Any, None]:
                try:
                    async for chunk in _sse_events(response):
                        seen.append(chunk)
                        yield chunk
                finally:
                    await response.aclose()

            body = self._relay(
                request,
                events(),
                0,
                parked,
                park_after,
                lambda: keep(SseResponse(status=response.status_code, chunks=seen)),
            )
            return StreamingResponse(body, status_code=response.status_code, media_type="text/event-stream")
        raw = await response.aread()
        await response.aclose()
        try:
            payload = json.loads(raw)
        except ValueError:
            # Not JSON (e.g. a proxy's HTML error page): passed on, but it cannot be recorded.
            if recording:
                recording.problem(
                    normalized, f"upstream answered {response.status_code} with a non-JSON body"
                )
            return Response(
                raw, status_code=response.status_code, media_type=response.headers.get("content-type")
            )
        keep(JsonResponse(status=response.status_code, body=payload))
        return JSONResponse(payload, status_code=response.status_code)


def create_app(config: ReplayConfig) -> FastAPI:
    hub = ReplayHub(config)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        await hub.aclose()

    app = FastAPI(
        title="model record/replay", lifespan=lifespan, openapi_url=None, docs_url=None, redoc_url=None
    )
    app.state.hub = hub

    @app.exception_handler(ScopeError)
    async def _conflict(_: Request, error: ScopeError) -> JSONResponse:
        return provider_error(409, str(error), "replay_scope")

    @app.exception_handler(CassetteError)
    async def _bad_cassette(_: Request, error: CassetteError) -> JSONResponse:
        return provider_error(422, str(error), "cassette_error")

    def forwarded_headers(request: Request) -> dict[str, str]:
        return {name: value for name, value in request.headers.items() if name not in _NOT_FORWARDED}

    @app.get("/v1/models")
    async def models(request: Request) -> Response:
        if config.mode == "replay":
            data = [
                {"id": name, "object": "model", "created": 0, "owned_by": "replay"} for name in hub.models()
            ]
            return JSONResponse({"object": "list", "data": data})
        try:
            response = await hub.client.get(
                f"{config.upstream}/models", headers={"Authorization": f"Bearer {config.api_key}"}
            )
        except httpx.HTTPError as error:
            return provider_error(502, f"replay: upstream failed: {error!r}", "upstream_error")
        return Response(
            response.content,
            status_code=response.status_code,
            media_type=response.headers.get("content-type"),
        )

    @app.post("/v1/chat/completions")
    async def chat_completions(request: Request) -> Response:
        content = await request.body()
        try:
            normalized = chat_request(json.loads(content), call_site_of(request.headers))
        except (ValueError, TypeError, AttributeError) as error:
            return provider_error(400, f"invalid chat completion request: {error}", "invalid_request_error")
        upstream = _Upstream(
            "POST",
            f"{config.upstream}/chat/completions",
            content,
            {
                "Authorization": f"Bearer {config.api_key}",
                "Content-Type": "application/json",
                "Accept": request.headers.get("accept", "application/json"),
            },
        )
        return await hub.handle(request, "chat", normalized, upstream)

    @app.api_route("/search/{path:path}", methods=["GET", "POST"])
    async def search(path: str, request: Request) -> Response:
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
        if config.search_upstream:
            query = f"?{request.url.query}" if request.url.query else ""
            url = f"{config.search_upstream.rstrip('/')}/{path}{query}"
            upstream = _Upstream(request.method, url, content, forwarded_headers(request))
        return await hub.handle(request, "search", normalized, upstream)

    @app.post("/__replay/scenario")
    async def open_scope(body: OpenScope) -> dict[str, Any]:
        return hub.open_scope(body)

    @app.delete("/__replay/scenario")
    async def close_scope() -> dict[str, Any]:
        return hub.close_scope().model_dump(mode="json")

    @app.post("/__replay/patches")
    async def add_patch(request: Request) -> Response:
        try:
            patch = _PATCH.validate_python(await request.json())
        except ValueError as error:
            return provider_error(422, f"invalid patch: {error}", "invalid_patch")
        return JSONResponse(hub.add_patch(patch).model_dump(mode="json"))

    @app.get("/__replay/state")
    async def state() -> dict[str, Any]:
        return hub.state()

    @app.get("/__replay/healthz")
    async def healthz() -> dict[str, Any]:
        return {"ok": True, "mode": config.mode}

    return app


class _Server(uvicorn.Server):
    def __init__(
        self, config: uvicorn.Config, before_shutdown: Callable[[], None], on_ready: Callable[[], None]
    ) -> None:
        super().__init__(config)
        self._before_shutdown = before_shutdown
        self._on_ready = on_ready

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started:
            self._on_ready()

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        # Graceful shutdown waits for open requests; parked hangs would hold it forever.
        self._before_shutdown()
        await super().shutdown(sockets)


def _server(app: Any, before_shutdown: Callable[[], None], on_ready: Callable[[], None]) -> _Server:
    config = uvicorn.Config(app, log_level="warning", access_log=False, timeout_graceful_shutdown=5)
    return _Server(config, before_shutdown, on_ready)


def _bind(host: str, port: int) -> tuple[socket.socket, str]:
    # Binding ourselves makes port 0 work: the URL is known before uvicorn starts. The explicit
    # IPPROTO_TCP lets asyncio set TCP_NODELAY on accepted connections (it checks the protocol);
    # without it, small SSE writes meet delayed ACKs and stall for 40 ms.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    return sock, f"http://{host}:{sock.getsockname()[1]}"


def run(config: ReplayConfig, host: str, port: int, on_ready: Callable[[str], None]) -> None:
    """Serves until SIGINT/SIGTERM; `on_ready(url)` runs once the socket accepts connections."""
    app = create_app(config)
    sock, url = _bind(host, port)
    _server(app, app.state.hub.stop, lambda: on_ready(url)).run(sockets=[sock])


class BackgroundServer:
    """Runs an ASGI app on 127.0.0.1 in a daemon thread (tests, benchmarks, in-process embedding)."""

    def __init__(self, app: Any, before_shutdown: Callable[[], None] = lambda: None) -> None:
        self._sock, self.url = _bind("127.0.0.1", 0)
        self._ready = threading.Event()
        self._server = _server(app, before_shutdown, self._ready.set)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [self._sock]}, daemon=True
        )

    def __enter__(self) -> Self:
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._ready.wait(0.01):
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"server at {self.url} did not start")
        return self

    def stop(self) -> None:
        """Asks the server to stop without waiting, so several can shut down at once."""
        self._server.should_exit = True

    def __exit__(self, *_: object) -> None:
        self.stop()
        self._thread.join(timeout=10)
        self._sock.close()
        if self._thread.is_alive():
            raise RuntimeError(f"server at {self.url} did not stop within 10s")


def replay_server(config: ReplayConfig) -> BackgroundServer:
    """A replay server in this process: `with replay_server(config) as server: ... server.url`."""
    app = create_app(config)
    return BackgroundServer(app, app.state.hub.stop)
