"""The Host header is trusted only for names the console is known by: public URLs are built from
AGENT_BUILDER_PUBLIC_URL when set, else from the request, so a forged Host (or a DNS rebinding
name) must not get that far. Allowed: AGENT_BUILDER_ALLOWED_HOSTS (default `localhost`), the
public URL's host, and the address the connection arrived at (an IP literal cannot be rebound)."""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from agent_builder.console.config import ConsoleConfig


def host_name(host: str) -> str:
    """`Example.com:8080` → `example.com`, `[::1]:80` → `::1`; "" when it is not a host."""
    try:
        return (urlsplit(f"//{host}").hostname or "").lower()
    except ValueError:
        return ""


class HostCheckMiddleware:
    def __init__(self, app: ASGIApp, config: ConsoleConfig) -> None:
        self.app = app
        self.allowed = {name.lower() for name in config.allowed_hosts}
        if config.public_url:
            self.allowed.add(urlsplit(config.public_url).hostname or "")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        host = Headers(scope=scope).get("host") if scope["type"] == "http" else None
        if host is None or self._allowed(host, scope):
            await self.app(scope, receive, send)
            return
        response = JSONResponse(
            {
                "code": "invalid_host",
                "message": f"This console does not answer to the host {host_name(host) or host!r}. "
                "Add it to AGENT_BUILDER_ALLOWED_HOSTS, or set AGENT_BUILDER_PUBLIC_URL.",
            },
            status_code=400,
        )
        await response(scope, receive, send)

    def _allowed(self, host: str, scope: Scope) -> bool:
        name = host_name(host)
        server = scope.get("server")
        local = str(server[0]).lower() if server else None
        return bool(name) and (name in self.allowed or name == local)
