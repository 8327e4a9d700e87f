"""Security headers on every response: no MIME sniffing, no referrer to other sites, a Content
Security Policy that allows only the console's own scripts and styles (no inline script), frame
protection everywhere but the public web app (its embed snippet is an iframe on other sites),
and `Cache-Control: no-store` on everything dynamic (sessions, tokens and API keys included)."""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'"
)
CONSOLE_POLICY = _POLICY + "; frame-ancestors 'none'"
WEB_APP_POLICY = _POLICY  # any site may frame the web app: that is what its embed code does


def is_web_app_page(path: str) -> bool:
    """`/chat/{site_token}` and what lies under it."""
    parts = path.split("/")
    return len(parts) >= 3 and parts[1] == "chat" and bool(parts[2])


class SecurityHeadersMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        web_app = is_web_app_page(path)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers.setdefault("X-Content-Type-Options", "nosniff")
                headers.setdefault("Referrer-Policy", "same-origin")
                headers.setdefault("Content-Security-Policy", WEB_APP_POLICY if web_app else CONSOLE_POLICY)
                if not web_app:
                    headers.setdefault("X-Frame-Options", "DENY")
                if not path.startswith("/static/"):
                    headers.setdefault("Cache-Control", "no-store")
            await send(message)

        await self.app(scope, receive, send_with_headers)
