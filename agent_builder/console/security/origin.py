"""Cross-site request forgery: a state-changing request that a browser may have sent on its own
(it carries the console's session cookie or the web app's visitor cookie, or says where it came
from) must come from the console's own origin. `Origin` decides, else `Sec-Fetch-Site:
same-origin`. Bearer-token calls are exempt: no browser attaches those to a forged request. A
malformed bearer (`Bearer` without a token) is not one: the cookie it travels with still counts."""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.requests import cookie_parser
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from agent_builder.console.auth import bearer_token
from agent_builder.console.config import ConsoleConfig

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_DEFAULT_PORTS = {"http": 80, "https": 443}


def _origin_key(origin: str) -> tuple[str, str, int] | None:
    try:
        parts = urlsplit(origin)
        scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
        port = parts.port or _DEFAULT_PORTS.get(scheme, 0)
    except ValueError:
        return None
    return (scheme, host, port) if scheme in _DEFAULT_PORTS and host else None


def own_origins(scope: Scope, headers: Headers, config: ConsoleConfig) -> set[tuple[str, str, int]]:
    """The public URL's origin, and the one the request was addressed to (its Host is checked)."""
    candidates = [config.public_url or "", f"{scope.get('scheme', 'http')}://{headers.get('host', '')}"]
    return {key for key in map(_origin_key, candidates) if key is not None}


def _carries_cookie(headers: Headers, names: tuple[str, ...]) -> bool:
    # The parser that fills request.cookies: what it finds is what would authenticate.
    cookies = cookie_parser(headers.get("cookie", ""))
    return any(cookies.get(name) for name in names)


class OriginCheckMiddleware:
    def __init__(self, app: ASGIApp, config: ConsoleConfig, cookies: tuple[str, ...]) -> None:
        self.app = app
        self.config = config
        self.cookies = cookies

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in UNSAFE_METHODS:
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        if self._allowed(scope, headers):
            await self.app(scope, receive, send)
            return
        origin = headers.get("origin")
        came_from = f"the origin {origin}" if origin else "another site, or an unknown page"
        response = JSONResponse(
            {
                "code": "cross_origin_request",
                "message": f"Refused: this request came from {came_from}. The console accepts "
                "changes made with its cookies only from its own pages.",
            },
            status_code=403,
        )
        await response(scope, receive, send)

    def _allowed(self, scope: Scope, headers: Headers) -> bool:
        if bearer_token(headers.get("authorization")) is not None:
            return True  # a bearer with a token: `Bearer ` alone is no bearer, the cookie rules apply
        origin, fetch_site = headers.get("origin"), headers.get("sec-fetch-site")
        if origin is None and fetch_site is None:
            # Not a browser's own request (browsers send one or the other): fine unless it
            # authenticates with a cookie, which only a browser could have attached unasked.
            return not _carries_cookie(headers, self.cookies)
        if origin is not None:
            return _origin_key(origin) in own_origins(scope, headers, self.config)
        return fetch_site == "same-origin"
