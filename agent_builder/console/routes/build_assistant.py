"""The build assistant of an agent: propose a draft from a description, show the pending
proposal, apply it to the draft or discard it."""

from __future__ import annotations

from fastapi import APIRouter, Depends
from starlette.concurrency import run_in_threadpool

from agent_builder.console.auth import require_admin
from agent_builder.console.routes.common import DbDep, errors
from agent_builder.console.schemas.agents import Draft
from agent_builder.console.schemas.build_assistant import (
    ApplyProposal,
    PendingProposal,
    Proposal,
    ProposalRequest,
)
from agent_builder.console.schemas.errors import RevisionConflictResponse
from agent_builder.console.services import build_assistant

router = APIRouter(
    prefix="/console/api/agents/{agent_id}/build-assistant",
    tags=["build-assistant"],
    dependencies=[Depends(require_admin)],
    responses=errors(401, 404, 422),
)


@router.post("/proposal", responses=errors(409, 502))
async def propose_draft(agent_id: str, body: ProposalRequest, db: DbDep) -> Proposal:
    """Ask the decision model for a draft matching `description`; it becomes the agent's pending
    proposal (the draft itself is untouched). 409 `decision_model_not_configured` or
    `decision_model_unavailable`, 422 `secret_in_instructions` (the proposed instructions use a
    secret variable: nothing is kept), 502 `proposal_failed` or `invalid_proposal`."""
    return await run_in_threadpool(build_assistant.propose, db, agent_id, body.description)


@router.get("/proposal")
def get_pending_proposal(agent_id: str, db: DbDep) -> PendingProposal:
    """The pending proposal, or `{"proposal": null}`; availability of its tools and datasets is
    judged now."""
    return PendingProposal(proposal=build_assistant.pending(db, agent_id))


@router.post("/proposal/apply", responses=errors(409, models={409: RevisionConflictResponse}))
def apply_proposal(agent_id: str, body: ApplyProposal, db: DbDep) -> Draft:
    """Write the sections the proposal names into the draft as one saved revision and drop the
    proposal. 409 `revision_conflict` when the draft is no longer at `revision`, 422
    `secret_in_instructions` when its instructions use a variable that is secret now (the
    proposal stays pending either way)."""
    return build_assistant.apply(db, agent_id, body.revision)


@router.delete("/proposal", status_code=204)
def discard_proposal(agent_id: str, db: DbDep) -> None:
    """Drop the pending proposal; the draft is untouched. 404 when there is none."""
    build_assistant.discard(db, agent_id)
