"""The build assistant: a description in, the decision model's proposed draft out, shown as what
it would change, then applied to the draft or discarded."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator

from agent_builder.console.schemas.agents import SuggestedQuestion
from agent_builder.console.schemas.base import MAX_INT, RequestModel, ResponseModel
from agent_builder.console.schemas.skills import MAX_DESCRIPTION_CHARS, MAX_SKILLS, SkillName

ItemName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]


class ProposalRequest(RequestModel):
    description: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=4000)]


class ProposedSkillFiles(BaseModel):
    """A skill the decision model writes: its SKILL.md's front matter and body (one file)."""

    model_config = ConfigDict(extra="forbid")

    name: SkillName
    # One line: it becomes the front matter's `description:` value.
    description: Annotated[
        str, StringConstraints(min_length=1, max_length=MAX_DESCRIPTION_CHARS, pattern=r"^[^\r\n]+$")
    ]
    instructions: Annotated[str, StringConstraints(max_length=20000)]  # SKILL.md after the front matter


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
    # Each added to the draft's skills, or in place of the one of its name.
    skills: Annotated[list[ProposedSkillFiles], Field(max_length=MAX_SKILLS)] | None = None

    @field_validator("skills")
    @classmethod
    def _one_skill_per_name(cls, skills: list[ProposedSkillFiles] | None) -> list[ProposedSkillFiles] | None:
        names = [skill.name for skill in skills or []]
        if twice := sorted({name for name in names if names.count(name) > 1}):
            raise ValueError(f"two skills are named {twice[0]}")
        return skills


class ProposedItem(ResponseModel):
    """A tool or dataset the proposal names. One that does not exist is `available: false` with
    a `reason`, and applying the proposal leaves it out."""

    name: str  # as the proposal names it: a tool name, a dataset name
    label: str  # how the page shows it
    id: str | None  # the tool name or dataset id it resolved to
    available: bool
    reason: str | None


class ProposedSkill(ResponseModel):
    """A skill the proposal adds (`new`), rewrites (`replaced`: the draft has one of that name) or
    repeats exactly (`unchanged`). One that would exceed the skill limit is `available: false`
    with a `reason`, and applying the proposal leaves it out."""

    name: str
    description: str
    change: Literal["new", "replaced", "unchanged"]
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
    skills: list[ProposedSkill] | None


class PendingProposal(ResponseModel):
    proposal: Proposal | None


class ApplyProposal(RequestModel):
    revision: int = Field(
        ge=0, le=MAX_INT, description="the draft revision the proposal was reviewed against"
    )
