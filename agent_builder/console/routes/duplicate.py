"""Duplicating an agent (configuration and files; never its publication, keys or conversations)."""

from __future__ import annotations

from fastapi import APIRouter, Depends

from agent_builder.console.auth import require_admin
from agent_builder.console.routes.common import DbDep, OriginDep, errors
from agent_builder.console.schemas.agents import AgentDetail, AgentDuplicate
from agent_builder.console.services import duplicate

router = APIRouter(
    prefix="/console/api/agents/{agent_id}/duplicate",
    tags=["agents"],
    dependencies=[Depends(require_admin)],
    responses=errors(401, 404, 422),
)


# The body is optional: without one the copy is "<name> (copy)" with the original's description.
_DEFAULTS = AgentDuplicate()


@router.post("", status_code=201)
def duplicate_agent(
    agent_id: str, db: DbDep, origin: OriginDep, body: AgentDuplicate = _DEFAULTS
) -> AgentDetail:
    """A new agent named `name` (default "<name> (copy)") with the draft, files and variables."""
    return duplicate.duplicate_agent(db, agent_id, body, origin)
