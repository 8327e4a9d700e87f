"""Service API keys of an agent."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import StringConstraints

from agent_builder.console.schemas.base import RequestModel, ResponseModel


class ApiKeyCreate(RequestModel):
    name: Annotated[str, StringConstraints(strip_whitespace=True, max_length=80)] | None = None


class ApiKeyCreated(ResponseModel):
    id: str
    name: str
    secret: str
    prefix: str
    created_at: datetime


class ApiKey(ResponseModel):
    id: str
    name: str
    masked: str
    created_at: datetime
    last_used_at: datetime | None


class ApiKeyList(ResponseModel):
    data: list[ApiKey]
