from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response

from agent_builder.console import auth
from agent_builder.console.routes.common import DbDep, errors
from agent_builder.console.schemas.auth import LoginRequest, LoginResponse, Me
from agent_builder.console.security.cookies import session_cookie
from agent_builder.console.security.throttle import LoginThrottle, client_key

router = APIRouter(prefix="/console/api", tags=["auth"], responses=errors(422))
AdminEmail = Annotated[str, Depends(auth.require_admin)]


@router.post("/login", responses=errors(401, 429))
def login(body: LoginRequest, request: Request, db: DbDep, response: Response) -> LoginResponse:
    """Sign in. Wrong passwords are throttled per client, and per account for clients that have
    failed too: `429` with `Retry-After` (seconds) while a delay runs, growing with each further
    failure. A client that has not failed is never refused because others did."""
    throttle: LoginThrottle = request.app.state.login_throttle
    # The address as a trusted proxy forwarded it (security/__init__.py), else the peer's.
    client = client_key(request.client.host if request.client else None)
    with throttle.attempt(body.email.lower(), client):
        token = auth.login(db, body.email, body.password)
    response.set_cookie(
        auth.SESSION_COOKIE,
        token,
        max_age=int(auth.SESSION_LIFETIME.total_seconds()),
        **session_cookie(request),
    )
    return LoginResponse(email=body.email.lower(), access_token=token)


@router.post("/logout", status_code=204, responses=errors(401))
def logout(request: Request, db: DbDep, response: Response, _email: AdminEmail) -> None:
    token = auth.session_token(request)
    if token is not None:
        auth.logout(db, token)
    response.delete_cookie(auth.SESSION_COOKIE, **session_cookie(request))


@router.get("/me", responses=errors(401))
def me(email: AdminEmail) -> Me:
    return Me(email=email)
