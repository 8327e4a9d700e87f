"""The builtin tool catalog and tool credentials."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import StringConstraints

from agent_builder.console.schemas.base import HttpUrl, Name, RequestModel, ResponseModel, Secret

TOOL_NAMES = ("json_replace", "sandbox_shell", "knowledge_search", "web_search")


ToolName = Literal["json_replace", "sandbox_shell", "knowledge_search", "web_search"]


# A tool's credential as agents see it: `not_required` (the tool needs none), `missing` (no
# credential), `invalid` (every credential failed its last check), `configured` (one has not).
CredentialState = Literal["not_required", "configured", "missing", "invalid"]
CheckStatus = Literal["unchecked", "valid", "invalid"]


class Tool(ResponseModel):
    name: ToolName
    label: str
    description: str
    requires_credential: bool
    credential_configured: bool
    credential_state: CredentialState


class ToolList(ResponseModel):
    data: list[Tool]


class ToolCredentialCreate(RequestModel):
    tool: Annotated[str, StringConstraints(min_length=1, max_length=80)]
    name: Name
    secret: Secret
    base_url: HttpUrl | None = None


class ToolCredential(ResponseModel):
    id: str
    tool: str
    name: str
    base_url: str | None
    secret_masked: str
    created_at: datetime
    check_status: CheckStatus = "unchecked"
    check_message: str | None = None  # why the last check failed
    checked_at: datetime | None = None


class ToolCredentialList(ResponseModel):
    data: list[ToolCredential]
