"""Running the replay app: `run()` for `python -m support.replay serve`, `replay_server()` for one
in this process; `serve()` and `BackgroundServer` run any ASGI app (the reference model, tests,
benchmarks) with uvicorn on a socket bound first, so port 0 works.

The app itself, its routes and its state are in `support.replay.app` and `support.replay.hub`.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable
from typing import Any, Self

import uvicorn

from support.replay.app import create_app
from support.replay.config import ReplayConfig

READY_PREFIX = "REPLAY_READY"


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


def serve(
    app: Any,
    host: str,
    port: int,
    on_ready: Callable[[str], None],
    before_shutdown: Callable[[], None] = lambda: None,
) -> None:
    """Serves `app` until SIGINT/SIGTERM; `on_ready(url)` runs once the socket accepts connections."""
    sock, url = _bind(host, port)
    try:
        _server(app, before_shutdown, lambda: on_ready(url)).run(sockets=[sock])
    finally:
        sock.close()


def run(config: ReplayConfig, host: str, port: int, on_ready: Callable[[str], None]) -> None:
    """The replay server of `python -m support.replay serve`, as `serve()` describes."""
    app = create_app(config)
    serve(app, host, port, on_ready, app.state.hub.stop)


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
