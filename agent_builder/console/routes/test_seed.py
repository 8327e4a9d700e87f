"""Test-only seeding, mounted only with AGENT_BUILDER_ENABLE_TEST_SEED=1: writes data a test
cannot create through the product's API (e.g. backdated conversations), via the product's store."""

from __future__ import annotations

from fastapi import APIRouter, Depends

from agent_builder.console.auth import require_admin
from agent_builder.console.routes.common import DbDep, errors
from agent_builder.console.schemas.seeding import SeedConversationCreated, SeedConversationRequest
from agent_builder.console.services import conversations

router = APIRouter(
    prefix="/__test__",
    tags=["test-seed"],
    dependencies=[Depends(require_admin)],
    responses=errors(401, 404, 422),
)


@router.post("/conversations", status_code=201)
def seed_conversation(body: SeedConversationRequest, db: DbDep) -> SeedConversationCreated:
    return SeedConversationCreated(id=conversations.create_conversation(db, body))
