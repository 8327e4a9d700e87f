"""Files attached to an agent."""

from __future__ import annotations

from datetime import datetime

from agent_builder.console.schemas.base import ResponseModel


class AgentFile(ResponseModel):
    id: str
    name: str
    size: int
    content_type: str
    created_at: datetime


class AgentFileList(ResponseModel):
    data: list[AgentFile]
    limit: int  # the most files an agent may hold (uploads past it are refused with 409)
