"""Reading one published version, and restoring it into the draft (listing is in agents.py)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path

from agent_builder.console.auth import require_admin
from agent_builder.console.routes.common import DbDep, errors
from agent_builder.console.schemas.agents import Draft, PublishedVersion
from agent_builder.console.schemas.base import MAX_INT
from agent_builder.console.schemas.errors import RevisionConflictResponse
from agent_builder.console.schemas.versions import VersionRestore
from agent_builder.console.services import versions

router = APIRouter(
    prefix="/console/api/agents/{agent_id}/versions",
    tags=["agents"],
    dependencies=[Depends(require_admin)],
    responses=errors(401, 404, 422),
)

VersionNumber = Annotated[int, Path(ge=1, le=MAX_INT)]


@router.get("/{version}")
def get_agent_version(agent_id: str, version: VersionNumber, db: DbDep) -> PublishedVersion:
    return versions.get_version(db, agent_id, version)


@router.post("/{version}/restore", responses=errors(409, models={409: RevisionConflictResponse}))
def restore_agent_version(agent_id: str, version: VersionNumber, body: VersionRestore, db: DbDep) -> Draft:
    """Copy the version into the draft (one new revision); what is published does not change. 422
    `secret_in_instructions` when its instructions use a variable that is secret now."""
    return versions.restore_version(db, agent_id, version, body.revision)
