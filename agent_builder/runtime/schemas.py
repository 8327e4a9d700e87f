"""The run request: a published agent snapshot, the conversation so far, the query, and the
services its tools may call. Credentials are `SecretStr`, so a stray repr or log shows `**********`.
Where shellctl and the console's knowledge retrieval are is the runtime's own setting, never the
request's: a caller cannot send the runtime's shellctl token, or a run's knowledge token, elsewhere."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, StringConstraints

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

ENV_NAME_PATTERN = r"^[A-Z_][A-Z0-9_]{0,63}$"
MAX_ENV_VARS = 100
ToolName = Literal["sandbox_shell", "json_replace", "knowledge_search", "web_search"]
_URL = r"^https?://\S+$"
# The console's route for a run's knowledge retrieval, under AGENT_BUILDER_RUNTIME_CONSOLE_URL.
KNOWLEDGE_RETRIEVE_PATH = "/internal/knowledge/retrieve"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


EnvName = Annotated[str, StringConstraints(pattern=ENV_NAME_PATTERN)]


class ModelSettings(_Model):
    base_url: str = Field(
        pattern=_URL, description="OpenAI-compatible base URL, e.g. https://api.openai.com/v1"
    )
    api_key: SecretStr = Field(min_length=1)
    name: str = Field(min_length=1)


class Parameters(_Model):
    temperature: Temperature = DEFAULT_TEMPERATURE
    max_tokens: MaxTokens = DEFAULT_MAX_TOKENS


class ToolSetting(_Model):
    name: ToolName
    enabled: bool = True


class KnowledgeSettings(_Model):
    dataset_ids: list[str] = []
    top_k: TopK = DEFAULT_TOP_K
    score_threshold: ScoreThreshold | None = None
    retrieval_mode: RetrievalMode = DEFAULT_RETRIEVAL_MODE


class OutputSpec(_Model):
    """One declared output variable (the console checks names and nesting)."""

    name: str = Field(min_length=1, max_length=64)
    type: Literal["string", "number", "boolean", "object", "array"]
    description: str = ""
    items: Literal["string", "number", "boolean"] = "string"
    fields: list[OutputSpec] = []


class SkillSnapshot(_Model):
    name: str = Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$", max_length=64)
    description: str
    files: dict[str, str] = Field(max_length=50)  # path inside the skill's folder -> text


class AgentSnapshot(_Model):
    name: str
    instructions: str = ""
    model: ModelSettings
    parameters: Parameters = Parameters()
    tools: list[ToolSetting] = []
    knowledge: KnowledgeSettings = KnowledgeSettings()
    # The output variables the model is to set (with the set_outputs tool) before it answers.
    outputs: list[OutputSpec] = []
    # The agent's variables, for the sandbox commands' environment. A secret one's value is
    # replaced by `[secret NAME]` wherever a tool's output would show it.
    env: dict[EnvName, str] = Field(default={}, max_length=MAX_ENV_VARS)
    secret_env: dict[EnvName, SecretStr] = Field(default={}, max_length=MAX_ENV_VARS)
    # Offered to the model by name and description; their files are put in the sandbox workspace.
    skills: list[SkillSnapshot] = Field(default=[], max_length=10)


class HistoryMessage(_Model):
    role: Literal["user", "assistant"]
    content: str


class KnowledgeService(_Model):
    # The run's retrieval token, sent to the configured console (AGENT_BUILDER_RUNTIME_CONSOLE_URL).
    token: SecretStr = Field(min_length=1)


class WebSearchService(_Model):
    base_url: str = Field(pattern=_URL)
    api_key: SecretStr


class Services(_Model):
    # Whom shellctl files the conversation's workspace under (the console: the agent), so that
    # removing the owner removes its workspaces.
    shellctl_owner: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_-]{1,64}$")
    knowledge: KnowledgeService | None = None
    web_search: WebSearchService | None = None


class RunRequest(_Model):
    run_id: str = Field(
        pattern=r"^[A-Za-z0-9_.-]{1,128}$", description="client-chosen, unique among active runs"
    )
    agent: AgentSnapshot
    # Doubles as the shellctl session id (shellctl maps it to a workspace), so it follows the same rule.
    conversation_id: str = Field(pattern=r"^[A-Za-z0-9_-]{1,64}$")
    history: list[HistoryMessage] = []
    query: str = Field(min_length=1)
    services: Services = Services()
