"""Every request and response body of the console, by stable name, so `/openapi.json` can feed a
client generator. Request models forbid unknown fields: a typo must fail loudly, not be dropped."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, model_validator

TOOL_NAMES = ("json_replace", "sandbox_shell", "knowledge_search", "web_search")
ToolName = Literal["json_replace", "sandbox_shell", "knowledge_search", "web_search"]
IndexingStatus = Literal["waiting", "indexing", "completed", "error"]

MAX_INT = 2**53  # anything that reaches SQLite must fit its 64-bit integers


def _contains_surrogate(value: Any) -> bool:
    if isinstance(value, str):
        return any("\ud800" <= char <= "\udfff" for char in value)
    if isinstance(value, dict):
        return any(_contains_surrogate(key) or _contains_surrogate(item) for key, item in value.items())
    if isinstance(value, list):
        return any(_contains_surrogate(item) for item in value)
    return False


class RequestModel(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    @model_validator(mode="before")
    @classmethod
    def _reject_unpaired_surrogates(cls, data: Any) -> Any:
        # JSON may escape lone surrogates ("\ud800"); they cannot be stored or sent back as UTF-8.
        if _contains_surrogate(data):
            raise ValueError("Text contains an invalid Unicode character (unpaired surrogate).")
        return data


class ResponseModel(BaseModel):
    model_config = ConfigDict(allow_inf_nan=False)


def _http_url(value: str) -> str:
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError("Must be an http(s):// URL with a host.")
    return value.rstrip("/")


Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=80)]
Description = Annotated[str, StringConstraints(max_length=1000)]
HttpUrl = Annotated[str, StringConstraints(strip_whitespace=True, max_length=2000), AfterValidator(_http_url)]


def _header_safe(value: str) -> str:
    # Keys travel in HTTP headers: only visible ASCII survives that intact.
    if not all("!" <= char <= "~" for char in value):
        raise ValueError("Must contain only visible ASCII characters (no spaces).")
    return value


Secret = Annotated[str, StringConstraints(min_length=1, max_length=2000), AfterValidator(_header_safe)]
ResourceId = Annotated[str, StringConstraints(min_length=1, max_length=64)]


# --- errors ---------------------------------------------------------------------------------


class ErrorResponse(ResponseModel):
    code: str
    message: str


class FieldError(ResponseModel):
    field: str
    message: str


class ValidationErrorResponse(ErrorResponse):
    errors: list[FieldError]


class RevisionConflictResponse(ErrorResponse):
    current_revision: int


class DraftInvalidResponse(ErrorResponse):
    reasons: list[str]


# --- auth -----------------------------------------------------------------------------------


class LoginRequest(RequestModel):
    email: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=320)]
    password: Annotated[str, StringConstraints(min_length=1, max_length=1000)]


class LoginResponse(ResponseModel):
    email: str
    access_token: str


class Me(ResponseModel):
    email: str


# --- model providers ------------------------------------------------------------------------


class ProviderCreate(RequestModel):
    name: Name
    base_url: HttpUrl
    api_key: Secret


class ProviderUpdate(RequestModel):
    name: Name | None = None
    base_url: HttpUrl | None = None
    api_key: Secret | None = None


class Model(ResponseModel):
    id: str
    provider_id: str
    provider_name: str
    name: str
    active: bool


class ModelList(ResponseModel):
    data: list[Model]


class ModelUpdate(RequestModel):
    active: bool


class Provider(ResponseModel):
    id: str
    name: str
    base_url: str
    api_key_masked: str
    status: Literal["active", "invalid"]
    error: str | None
    validated_at: datetime | None
    models: list[Model]


class ProviderList(ResponseModel):
    data: list[Provider]


# --- tools ----------------------------------------------------------------------------------


class Tool(ResponseModel):
    name: ToolName
    label: str
    description: str
    requires_credential: bool
    credential_configured: bool


class ToolList(ResponseModel):
    data: list[Tool]


class ToolCredentialCreate(RequestModel):
    tool: Annotated[str, StringConstraints(min_length=1, max_length=80)]
    name: Name
    secret: Secret
    base_url: HttpUrl | None = None


class ToolCredential(ResponseModel):
    id: str
    tool: str
    name: str
    base_url: str | None
    secret_masked: str
    created_at: datetime


class ToolCredentialList(ResponseModel):
    data: list[ToolCredential]


# --- knowledge ------------------------------------------------------------------------------


class DatasetCreate(RequestModel):
    name: Name
    description: Description = ""


class DatasetUpdate(RequestModel):
    name: Name | None = None
    description: Description | None = None


class Dataset(ResponseModel):
    id: str
    name: str
    description: str
    document_count: int
    created_at: datetime


class DatasetList(ResponseModel):
    data: list[Dataset]


class Document(ResponseModel):
    id: str
    dataset_id: str
    name: str
    size: int
    indexing_status: IndexingStatus
    error: str | None
    segment_count: int
    created_at: datetime


class DocumentList(ResponseModel):
    data: list[Document]


class Segment(ResponseModel):
    id: str
    document_id: str
    position: int
    content: str
    enabled: bool


class SegmentList(ResponseModel):
    data: list[Segment]


class SegmentUpdate(RequestModel):
    enabled: bool


class RetrieveRequest(RequestModel):
    query: Annotated[str, StringConstraints(min_length=1, max_length=2000)]
    top_k: int = Field(default=3, ge=1, le=20)
    score_threshold: float | None = Field(default=None, ge=0, le=1)


class RetrievalRecord(ResponseModel):
    segment_id: str
    document_id: str
    document_name: str
    content: str
    score: float


class RetrieveResponse(ResponseModel):
    records: list[RetrievalRecord]


# --- agents ---------------------------------------------------------------------------------


class AgentModelRef(RequestModel):
    provider_id: ResourceId
    name: Annotated[str, StringConstraints(min_length=1, max_length=200)]


class ModelParameters(RequestModel):
    temperature: float = Field(default=0.7, ge=0, le=2)
    max_tokens: int = Field(default=1024, ge=1, le=32000)


class AgentTool(RequestModel):
    name: ToolName
    enabled: bool = True


def _unique(values: list[Any], what: str) -> None:
    if len(set(values)) != len(values):
        raise ValueError(f"Each {what} may appear at most once.")


class KnowledgeSettings(RequestModel):
    dataset_ids: Annotated[list[ResourceId], Field(max_length=50)] = []
    top_k: int = Field(default=3, ge=1, le=10)
    score_threshold: float | None = Field(default=None, ge=0, le=1)

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

    @model_validator(mode="after")
    def _distinct_tools(self) -> AgentConfig:
        _unique([tool.name for tool in self.tools], "tool")
        return self


class Draft(ResponseModel):
    revision: int
    config: AgentConfig
    updated_at: datetime


class DraftUpdate(RequestModel):
    revision: int = Field(ge=0, le=MAX_INT)
    config: AgentConfig


class PublishedVersion(ResponseModel):
    version: int
    published_at: datetime
    config: AgentConfig


class PublishedVersionList(ResponseModel):
    data: list[PublishedVersion]


class PublishResult(ResponseModel):
    version: int
    published_at: datetime


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


class ApiKeyCreate(RequestModel):
    name: Annotated[str, StringConstraints(strip_whitespace=True, max_length=80)] | None = None


class ApiKeyCreated(ResponseModel):
    id: str
    name: str
    secret: str
    prefix: str
    created_at: datetime


class ApiKey(ResponseModel):
    id: str
    name: str
    masked: str
    created_at: datetime
    last_used_at: datetime | None


class ApiKeyList(ResponseModel):
    data: list[ApiKey]


class AgentFile(ResponseModel):
    id: str
    name: str
    size: int
    content_type: str
    created_at: datetime


class AgentFileList(ResponseModel):
    data: list[AgentFile]


# --- public surfaces ------------------------------------------------------------------------

Query = Annotated[str, StringConstraints(min_length=1, max_length=10000)]


class WebAppMessageRequest(RequestModel):
    query: Query
    conversation_id: ResourceId | None = None


class ChatMessageRequest(RequestModel):
    query: Query
    response_mode: Literal["blocking", "streaming"]
    conversation_id: ResourceId | None = None
    user: Annotated[str, StringConstraints(min_length=1, max_length=200)]


MessageRole = Literal["user", "assistant"]
MessageStatus = Literal["completed", "failed", "cancelled"]


class Usage(ResponseModel):
    prompt_tokens: int
    completion_tokens: int
    total_tokens: int


class ToolCallRecord(ResponseModel):
    """One tool call of a reply and its result (`output` is null when the run ended first)."""

    id: str
    name: str
    arguments: dict[str, Any] | str
    output: str | None
    is_error: bool


class ChatMessage(ResponseModel):
    """A stored message. User messages are always `completed`; an assistant message is `failed`
    (with `error`) or `cancelled` (stopped; `content` is the part streamed before) otherwise."""

    id: str
    conversation_id: str
    role: MessageRole
    content: str
    status: MessageStatus
    error: ErrorResponse | None
    tool_calls: list[ToolCallRecord]
    retries: int
    usage: Usage | None
    agent_version: int | None
    created_at: datetime


class ChatMessageList(ResponseModel):
    data: list[ChatMessage]


class ChatMessageResponse(ResponseModel):
    """The service API's blocking answer (a run that did not complete is an error instead)."""

    conversation_id: str
    message_id: str
    answer: str
    status: Literal["completed"]
    usage: Usage
    tool_calls: list[ToolCallRecord]


# Server-sent events: each is `event: <event>` and `data: <data as one line of JSON>`.


class MessageStartEvent(ResponseModel):
    conversation_id: str
    message_id: str


class MessageDeltaEvent(ResponseModel):
    text: str


class ToolCallEvent(ResponseModel):
    id: str
    name: str
    arguments: dict[str, Any] | str


class ToolResultEvent(ResponseModel):
    id: str
    name: str
    output: str
    is_error: bool


class AnswerEvent(ResponseModel):
    answer: str


class MessageEndEvent(ResponseModel):
    conversation_id: str
    message_id: str
    usage: Usage


class WebAppStreamEvent(ResponseModel):
    """One event of the web app's reply stream: `message_start` (MessageStartEvent), then
    `message_delta` (MessageDeltaEvent), `tool_call` (ToolCallEvent) and `tool_result`
    (ToolResultEvent) as they happen, and last `message_end` (the stored ChatMessage, whatever its
    status) or `error` (ErrorResponse: the reply could not be stored)."""

    event: Literal["message_start", "message_delta", "tool_call", "tool_result", "message_end", "error"]
    data: (
        MessageStartEvent | MessageDeltaEvent | ToolCallEvent | ToolResultEvent | ChatMessage | ErrorResponse
    )


class ServiceApiStreamEvent(ResponseModel):
    """One event of the service API's streaming answer: `message` (AnswerEvent: the next piece
    of the answer), `tool_call` (ToolCallEvent), `tool_result` (ToolResultEvent), and last
    `message_end` (MessageEndEvent) or `error` (ErrorResponse: the run failed)."""

    event: Literal["message", "tool_call", "tool_result", "message_end", "error"]
    data: AnswerEvent | ToolCallEvent | ToolResultEvent | MessageEndEvent | ErrorResponse


class InternalRetrieveRequest(RetrieveRequest):
    """The runtime's knowledge_search call (internal): the run's datasets and settings."""

    dataset_ids: Annotated[list[ResourceId], Field(max_length=50)]


class AppInfo(ResponseModel):
    name: str
    description: str


class AppParameters(ResponseModel):
    opening_statement: str
    suggested_questions: list[str]


class Health(ResponseModel):
    status: Literal["ok"]


# --- test seeding ---------------------------------------------------------------------------


class SeedMessage(RequestModel):
    role: Literal["user", "assistant"]
    content: Annotated[str, StringConstraints(max_length=10000)]


def _as_utc(value: datetime) -> datetime:
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    try:
        return value.astimezone(UTC)
    except OverflowError:
        raise ValueError("Date is out of range.") from None


class SeedConversationRequest(RequestModel):
    agent_id: ResourceId
    created_at: Annotated[datetime, AfterValidator(_as_utc)]
    messages: Annotated[list[SeedMessage], Field(min_length=1, max_length=100)]


class SeedConversationCreated(ResponseModel):
    id: str
