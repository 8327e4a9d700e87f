"""Agents: the draft config, published versions and the access switches."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from pydantic import Field, StringConstraints, model_validator

from agent_builder.agent_parameters import (
    DEFAULT_MAX_TOKENS,
    DEFAULT_RETRIEVAL_MODE,
    DEFAULT_TEMPERATURE,
    DEFAULT_TOP_K,
    MaxTokens,
    RetrievalMode,
    ScoreThreshold,
    Temperature,
    TopK,
)
from agent_builder.console.schemas.base import (
    MAX_INT,
    Description,
    Name,
    RequestModel,
    ResourceId,
    ResponseModel,
)
from agent_builder.console.schemas.moderation import ModerationSettings
from agent_builder.console.schemas.outputs import Outputs
from agent_builder.console.schemas.skills import MAX_SKILLS, Skill
from agent_builder.console.schemas.tools import TOOL_NAMES, ToolName
from agent_builder.console.schemas.web_app_settings import WebAppSettings


class AgentModelRef(RequestModel):
    provider_id: ResourceId
    name: Annotated[str, StringConstraints(min_length=1, max_length=200)]


class ModelParameters(RequestModel):
    temperature: Temperature = DEFAULT_TEMPERATURE
    max_tokens: MaxTokens = DEFAULT_MAX_TOKENS


class AgentTool(RequestModel):
    name: ToolName
    enabled: bool = True


def _unique(values: list[Any], what: str) -> None:
    if len(set(values)) != len(values):
        raise ValueError(f"Each {what} may appear at most once.")


class KnowledgeSettings(RequestModel):
    dataset_ids: Annotated[
        list[ResourceId], Field(max_length=50, json_schema_extra={"uniqueItems": True})
    ] = []
    top_k: TopK = DEFAULT_TOP_K
    score_threshold: ScoreThreshold | None = None
    retrieval_mode: RetrievalMode = DEFAULT_RETRIEVAL_MODE

    @model_validator(mode="after")
    def _distinct_datasets(self) -> KnowledgeSettings:
        _unique(self.dataset_ids, "dataset")
        return self


SuggestedQuestion = Annotated[str, StringConstraints(min_length=1, max_length=200)]


class AgentConfig(RequestModel):
    instructions: Annotated[str, StringConstraints(max_length=10000)] = ""
    model: AgentModelRef | None = None
    parameters: ModelParameters = ModelParameters()
    opening_statement: Annotated[str, StringConstraints(max_length=1000)] = ""
    suggested_questions: Annotated[list[SuggestedQuestion], Field(max_length=5)] = []
    tools: Annotated[list[AgentTool], Field(max_length=len(TOOL_NAMES))] = []
    knowledge: KnowledgeSettings = KnowledgeSettings()
    moderation: ModerationSettings = ModerationSettings()
    web_app: WebAppSettings = WebAppSettings()
    outputs: Outputs = []
    skills: Annotated[list[Skill], Field(max_length=MAX_SKILLS)] = []

    @model_validator(mode="after")
    def _distinct_tools(self) -> AgentConfig:
        _unique([tool.name for tool in self.tools], "tool")
        _unique([skill.name for skill in self.skills], "skill name")
        return self


class Draft(ResponseModel):
    revision: int
    config: AgentConfig
    updated_at: datetime


class DraftUpdate(RequestModel):
    revision: int = Field(ge=0, le=MAX_INT)
    config: AgentConfig


VersionNote = Annotated[str, StringConstraints(strip_whitespace=True, max_length=200)]


class PublishedVersion(ResponseModel):
    version: int
    published_at: datetime
    note: str = ""
    config: AgentConfig


class PublishedVersionList(ResponseModel):
    data: list[PublishedVersion]


class PublishRequest(RequestModel):
    note: VersionNote = ""


class PublishResult(ResponseModel):
    version: int
    published_at: datetime
    note: str = ""


class Access(ResponseModel):
    published: bool
    unavailable_reason: str | None
    web_app_enabled: bool
    service_api_enabled: bool
    web_app_url: str | None
    service_api_base_url: str | None
    api_reference_url: str


class AccessUpdate(RequestModel):
    web_app_enabled: bool | None = None
    service_api_enabled: bool | None = None


class AgentCreate(RequestModel):
    name: Name
    description: Description = ""


class AgentDuplicate(RequestModel):
    """Omitted fields come from the original: "<name> (copy)" and its description."""

    name: Name | None = None
    description: Description | None = None


class AgentUpdate(RequestModel):
    name: Name | None = None
    description: Description | None = None


class AgentDetail(ResponseModel):
    id: str
    name: str
    description: str
    created_at: datetime
    updated_at: datetime
    draft: Draft
    published: PublishedVersion | None
    has_unpublished_changes: bool
    access: Access


class AgentSummary(ResponseModel):
    id: str
    name: str
    description: str
    published_version: int | None
    updated_at: datetime


class AgentList(ResponseModel):
    data: list[AgentSummary]
    total: int
