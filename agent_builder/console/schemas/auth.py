"""Sign-in bodies of the console API."""

from __future__ import annotations

from typing import Annotated

from pydantic import StringConstraints

from agent_builder.console.schemas.base import RequestModel, ResponseModel


class LoginRequest(RequestModel):
    email: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=320)]
    password: Annotated[str, StringConstraints(min_length=1, max_length=1000)]


class LoginResponse(ResponseModel):
    email: str
    access_token: str


class Me(ResponseModel):
    email: str
