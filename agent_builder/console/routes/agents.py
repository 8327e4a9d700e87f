from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query

from agent_builder.console.auth import require_admin
from agent_builder.console.routes.common import ConfigDep, DbDep, OriginDep, errors
from agent_builder.console.schemas.agents import (
    Access,
    AccessUpdate,
    AgentCreate,
    AgentDetail,
    AgentList,
    AgentUpdate,
    Draft,
    DraftUpdate,
    PublishedVersionList,
    PublishRequest,
    PublishResult,
)
from agent_builder.console.schemas.base import MAX_INT
from agent_builder.console.schemas.errors import DraftInvalidResponse, RevisionConflictResponse
from agent_builder.console.schemas.web_app_settings import WebAppSettings
from agent_builder.console.services import agents, sandbox

router = APIRouter(
    prefix="/console/api/agents",
    tags=["agents"],
    dependencies=[Depends(require_admin)],
    responses=errors(401, 422),
)


# The body is optional: publishing without one has no note.
_NO_NOTE = PublishRequest()


@router.get("")
def list_agents(
    db: DbDep,
    search: Annotated[str | None, Query(max_length=200)] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    offset: Annotated[int, Query(ge=0, le=MAX_INT)] = 0,
) -> AgentList:
    return agents.list_agents(db, search, limit, offset)


@router.post("", status_code=201)
def create_agent(body: AgentCreate, db: DbDep, origin: OriginDep) -> AgentDetail:
    return agents.create_agent(db, body, origin)


@router.get("/{agent_id}", responses=errors(404))
def get_agent(agent_id: str, db: DbDep, origin: OriginDep) -> AgentDetail:
    return agents.get_agent(db, agent_id, origin)


@router.patch("/{agent_id}", responses=errors(404))
def update_agent(agent_id: str, body: AgentUpdate, db: DbDep, origin: OriginDep) -> AgentDetail:
    return agents.update_agent(db, agent_id, body, origin)


@router.delete("/{agent_id}", status_code=204, responses=errors(404, 503))
def delete_agent(agent_id: str, db: DbDep, config: ConfigDep) -> None:
    sandbox.remove_workspaces(config, agent_id)  # first: if shellctl fails, the agent is kept
    agents.delete_agent(db, agent_id)


@router.put("/{agent_id}/draft", responses=errors(404, 409, models={409: RevisionConflictResponse}))
def save_draft(agent_id: str, body: DraftUpdate, db: DbDep) -> Draft:
    """Replace the draft, if it is still at `revision` (409 `revision_conflict` otherwise). 422
    `secret_in_instructions` when the instructions use a secret variable of the agent."""
    return agents.save_draft(db, agent_id, body.revision, body.config)


@router.put("/{agent_id}/draft/web-app", responses=errors(404))
def save_web_app_settings(agent_id: str, body: WebAppSettings, db: DbDep) -> Draft:
    """Replace the draft's web app settings (the access point's Web app settings dialog), keeping
    the rest of the draft: one new revision, whatever the revision was. The web app shows them
    once published."""
    return agents.save_web_app_settings(db, agent_id, body)


@router.post("/{agent_id}/publish", responses=errors(404, 409, models={409: DraftInvalidResponse}))
def publish_agent(agent_id: str, db: DbDep, body: PublishRequest = _NO_NOTE) -> PublishResult:
    """Publish the draft as the next version; `note` (optional) says what changed. `409
    draft_invalid` (with `reasons`) while the draft cannot be published: no model, or one that is
    gone or inactive; empty instructions; a knowledge dataset that no longer exists; instructions
    saved with a secret variable before that was refused (a conflict with the agent's state, not
    a fault of the request)."""
    return agents.publish(db, agent_id, body.note)


@router.get("/{agent_id}/versions", responses=errors(404))
def list_agent_versions(agent_id: str, db: DbDep) -> PublishedVersionList:
    return PublishedVersionList(data=agents.list_versions(db, agent_id))


@router.patch("/{agent_id}/access", responses=errors(404, 409))
def update_access(agent_id: str, body: AccessUpdate, db: DbDep, origin: OriginDep) -> Access:
    return agents.update_access(db, agent_id, body, origin)
