"""A shared token between services: with one configured, only a request that carries it as
`Authorization: Bearer <token>` reaches a route, except the service's open probes. Everything
else, unknown routes included, is a JSON 401. shellctl (AGENT_BUILDER_SHELLCTL_TOKEN) and the
runtime (AGENT_BUILDER_RUNTIME_TOKEN) use it."""

from __future__ import annotations

import hmac
from collections.abc import Collection

from fastapi.responses import JSONResponse
from pydantic import SecretStr
from starlette.types import ASGIApp, Receive, Scope, Send


class BearerTokenMiddleware:
    def __init__(self, app: ASGIApp, token: SecretStr, open_paths: Collection[str], service: str) -> None:
        # A SecretStr: Starlette's Middleware entry (app.user_middleware) shows its arguments.
        self.app = app
        self._expected = f"Bearer {token.get_secret_value()}".encode()
        self._open_paths = frozenset(open_paths)
        self._message = f"A valid {service} token is required (Authorization: Bearer)."

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan" or scope["path"] in self._open_paths or self._authorized(scope):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})  # policy violation
            return
        response = JSONResponse(
            {"code": "unauthorized", "message": self._message},
            status_code=401,
            headers={"WWW-Authenticate": "Bearer"},
        )
        await response(scope, receive, send)

    def _authorized(self, scope: Scope) -> bool:
        given = next((value for name, value in scope["headers"] if name == b"authorization"), b"")
        return hmac.compare_digest(given, self._expected)  # constant time: no guessing it byte by byte
