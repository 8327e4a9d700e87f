"""The test seeding router's bodies (mounted only when enabled)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, StringConstraints

from agent_builder.console.schemas.base import RequestModel, ResourceId, ResponseModel


def _as_utc(value: datetime) -> datetime:
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    try:
        return value.astimezone(UTC)
    except OverflowError:
        raise ValueError("Date is out of range.") from None


# Lax: a datetime arrives as ISO 8601 text in JSON (request bodies are strict otherwise).
UtcDatetime = Annotated[datetime, Field(strict=False), AfterValidator(_as_utc)]


class SeedMessage(RequestModel):
    role: Literal["user", "assistant"]
    content: Annotated[str, StringConstraints(max_length=10000)]
    # When it was written (default: the conversation's created_at). Messages are stored in
    # chronological order whatever order they are given in; equal times keep the given order.
    created_at: UtcDatetime | None = None


class SeedConversationRequest(RequestModel):
    agent_id: ResourceId
    created_at: UtcDatetime
    messages: Annotated[list[SeedMessage], Field(min_length=1, max_length=100)]


class SeedPublishRequest(RequestModel):
    note: Annotated[str, StringConstraints(max_length=200)] = ""


class SeedConversationCreated(ResponseModel):
    id: str
    # The conversation belongs to a new web app visitor: this is their `ab_visitor` cookie value.
    visitor_token: str
