"""Web app visitors: each browser gets an unguessable token in an HttpOnly cookie the first time
it opens a web app (or sends its first message), and a web app conversation belongs to the token
that started it. The database keeps only the token's SHA-256, as for sessions."""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass

from fastapi import Request
from starlette.responses import Response

from agent_builder.console.security.cookies import VISITOR_COOKIE, set_cookie, visitor_cookie

VISITOR_LIFETIME_S = 365 * 24 * 3600
_TOKEN = re.compile(r"[A-Za-z0-9_-]{43}")  # what token_urlsafe(32) makes


@dataclass(frozen=True)
class Visitor:
    owner: str  # what conversations store: the token's hash
    new_token: str | None  # set when this request made the visitor up: the response sets the cookie

    def remember(self, request: Request, response: Response) -> None:
        if self.new_token is not None:
            set_cookie(response, VISITOR_COOKIE, self.new_token, VISITOR_LIFETIME_S, visitor_cookie(request))


def owner_of(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def known_visitor(request: Request) -> str | None:
    """The owner id of the visitor's cookie, or None when it has none (or a made-up one)."""
    token = request.cookies.get(VISITOR_COOKIE, "")
    return owner_of(token) if _TOKEN.fullmatch(token) else None


def new_token() -> str:
    return secrets.token_urlsafe(32)


def visitor(request: Request) -> Visitor:
    """The visitor behind the cookie, or a new one (remember() then sets the cookie)."""
    owner = known_visitor(request)
    if owner is not None:
        return Visitor(owner, None)
    token = new_token()
    return Visitor(owner_of(token), token)
