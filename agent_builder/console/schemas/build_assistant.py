"""The build assistant: a description in, the decision model's proposed draft out, shown as what
it would change, then applied to the draft or discarded."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from agent_builder.console.schemas.agents import SuggestedQuestion
from agent_builder.console.schemas.base import MAX_INT, RequestModel, ResponseModel

ItemName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]


class ProposalRequest(RequestModel):
    description: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=4000)]


class DraftProposal(BaseModel):
    """The decision model's `propose_draft` arguments, validated before anything is stored. A
    field left out (or null) leaves that part of the draft as it is; files, the model and its
    parameters are never part of a proposal."""

    model_config = ConfigDict(extra="forbid")

    instructions: Annotated[str, StringConstraints(max_length=10000)] | None = None
    opening_statement: Annotated[str, StringConstraints(max_length=1000)] | None = None
    suggested_questions: Annotated[list[SuggestedQuestion], Field(max_length=5)] | None = None
    tools: Annotated[list[ItemName], Field(max_length=10)] | None = None  # tool names
    knowledge: Annotated[list[ItemName], Field(max_length=20)] | None = None  # dataset names


class ProposedItem(ResponseModel):
    """A tool or dataset the proposal names. One that does not exist is `available: false` with
    a `reason`, and applying the proposal leaves it out."""

    name: str  # as the proposal names it: a tool name, a dataset name
    label: str  # how the page shows it
    id: str | None  # the tool name or dataset id it resolved to
    available: bool
    reason: str | None


class Proposal(ResponseModel):
    """A pending proposal; a null section is one it does not touch."""

    description: str
    created_at: datetime
    instructions: str | None
    opening_statement: str | None
    suggested_questions: list[str] | None
    tools: list[ProposedItem] | None
    knowledge: list[ProposedItem] | None


class PendingProposal(ResponseModel):
    proposal: Proposal | None


class ApplyProposal(RequestModel):
    revision: int = Field(
        ge=0, le=MAX_INT, description="the draft revision the proposal was reviewed against"
    )
