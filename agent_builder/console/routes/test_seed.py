"""Test-only seeding, mounted only with AGENT_BUILDER_ENABLE_TEST_SEED=1: writes data a test
cannot create through the product's API (e.g. backdated conversations), via the product's store."""

from __future__ import annotations

from fastapi import APIRouter, Depends

from agent_builder.console.auth import require_admin
from agent_builder.console.routes.common import DbDep, errors
from agent_builder.console.schemas.agents import PublishResult
from agent_builder.console.schemas.seeding import (
    SeedConversationCreated,
    SeedConversationRequest,
    SeedPublishRequest,
)
from agent_builder.console.services import conversations, versions
from agent_builder.console.services.conversations import Owner
from agent_builder.console.visitors import new_token, owner_of

router = APIRouter(
    prefix="/__test__",
    tags=["test-seed"],
    dependencies=[Depends(require_admin)],
    responses=errors(401, 404, 422),
)


@router.post("/conversations", status_code=201)
def seed_conversation(body: SeedConversationRequest, db: DbDep) -> SeedConversationCreated:
    """A backdated web app conversation of a new visitor, whose cookie value is returned."""
    token = new_token()
    conversation_id = conversations.create_conversation(db, body, Owner(owner_of(token)))
    return SeedConversationCreated(id=conversation_id, visitor_token=token)


@router.post("/agents/{agent_id}/publish", status_code=201)
def seed_publish(agent_id: str, body: SeedPublishRequest, db: DbDep) -> PublishResult:
    """Publish the draft as it is, without the publish checks (no model needed): a published
    agent for the lanes that run without a model provider."""
    return versions.publish_unchecked(db, agent_id, body.note)
