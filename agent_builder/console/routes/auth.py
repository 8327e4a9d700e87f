from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response

from agent_builder.console import auth
from agent_builder.console.routes.common import DbDep, errors
from agent_builder.console.schemas.auth import LoginRequest, LoginResponse, Me

router = APIRouter(prefix="/console/api", tags=["auth"], responses=errors(422))
AdminEmail = Annotated[str, Depends(auth.require_admin)]


@router.post("/login", responses=errors(401))
def login(body: LoginRequest, db: DbDep, response: Response) -> LoginResponse:
    token = auth.login(db, body.email, body.password)
    response.set_cookie(
        auth.SESSION_COOKIE,
        token,
        max_age=int(auth.SESSION_LIFETIME.total_seconds()),
        httponly=True,
        samesite="lax",
        path="/",
    )
    return LoginResponse(email=body.email.lower(), access_token=token)


@router.post("/logout", status_code=204, responses=errors(401))
def logout(request: Request, db: DbDep, response: Response, _email: AdminEmail) -> None:
    token = auth.session_token(request)
    if token is not None:
        auth.logout(db, token)
    response.delete_cookie(auth.SESSION_COOKIE, path="/", httponly=True, samesite="lax")


@router.get("/me", responses=errors(401))
def me(email: AdminEmail) -> Me:
    return Me(email=email)
