"""The attributes of the console's cookies. `Secure` whenever the browser talks https to the
console: the public URL is https, or the request was (as a trusted proxy reports it through
`X-Forwarded-Proto`, AGENT_BUILDER_TRUSTED_PROXIES)."""

from __future__ import annotations

from typing import Literal, TypedDict

from fastapi import Request
from starlette.responses import Response

from agent_builder.console.config import ConsoleConfig

VISITOR_COOKIE = "ab_visitor"


class CookieOptions(TypedDict):
    secure: bool
    httponly: bool
    samesite: Literal["lax", "strict", "none"]
    partitioned: bool
    path: str


def is_https(request: Request) -> bool:
    config: ConsoleConfig = request.app.state.config
    return (config.public_url or "").startswith("https://") or request.url.scheme == "https"


def session_cookie(request: Request) -> CookieOptions:
    return CookieOptions(secure=is_https(request), httponly=True, samesite="lax", partitioned=False, path="/")


def visitor_cookie(request: Request) -> CookieOptions:
    """The web app's visitor cookie. Over https it must also work inside the embed snippet's
    iframe on another site: SameSite=None, in that site's partition (CHIPS). The origin check
    (origin.py) is what guards its POSTs then."""
    if is_https(request):
        return CookieOptions(secure=True, httponly=True, samesite="none", partitioned=True, path="/chat/")
    return CookieOptions(secure=False, httponly=True, samesite="lax", partitioned=False, path="/chat/")


def set_cookie(response: Response, name: str, value: str, max_age: int, options: CookieOptions) -> None:
    """`response.set_cookie` with these options. Python 3.11's `http.cookies` refuses
    `partitioned` ("only supported in Python 3.14"), so the attribute is appended to the header
    Starlette wrote; browsers read it as CHIPS' `Partitioned` either way."""
    response.set_cookie(name, value, max_age=max_age, **(options | {"partitioned": False}))
    if options["partitioned"]:
        header, cookie = response.raw_headers[-1]
        assert header == b"set-cookie", "set_cookie appends its header last"
        response.raw_headers[-1] = (header, cookie + b"; Partitioned")
