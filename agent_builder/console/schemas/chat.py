"""The public surfaces: web app and service API requests, stored messages, and the events of
their reply streams."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import StringConstraints, computed_field

from agent_builder.console.schemas.base import RequestModel, ResourceId, ResponseModel
from agent_builder.console.schemas.errors import ErrorResponse

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
# Content moderation replaced the reply with the agent's preset reply: "input" (the question was
# flagged and never reached the model; both messages are marked) or "output" (the answer was).
Moderated = Literal["input", "output"]


class Usage(ResponseModel):
    prompt_tokens: int
    completion_tokens: int
    total_tokens: int


class Citation(ResponseModel):
    """A knowledge passage's source: the dataset and document it was retrieved from."""

    dataset_id: str
    dataset_name: str
    document_id: str
    document_name: str


class ToolCallRecord(ResponseModel):
    """One tool call of a reply and its result (`output` is null when the run ended first);
    `citations` name the sources of the knowledge passages in `output`."""

    id: str
    name: str
    arguments: dict[str, Any] | str
    output: str | None
    is_error: bool
    citations: list[Citation] = []


# The runtime's tool through which the model sets an agent's output variables.
SET_OUTPUTS = "set_outputs"


def outputs_of(tool_calls: list[ToolCallRecord]) -> dict[str, Any] | None:
    """The outputs a reply's `set_outputs` call set, when the runtime accepted them."""
    for call in tool_calls:
        if (
            call.name == SET_OUTPUTS
            and not call.is_error
            and call.output
            and isinstance(call.arguments, dict)
        ):
            return call.arguments
    return None


class ChatMessage(ResponseModel):
    """A stored message. User messages are always `completed`; an assistant message is `failed`
    (with `error`) or `cancelled` (stopped; `content` is the part streamed before) otherwise.
    `moderated` says when content moderation stood in: a flagged question (`input`, on the
    question and its preset reply) or a flagged answer (`output`, on the reply: `content` is the
    preset reply); null otherwise."""

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
    moderated: Moderated | None = None

    @computed_field  # type: ignore[prop-decorator]  # pydantic's documented use on a property
    @property
    def outputs(self) -> dict[str, Any] | None:
        """The output variables the model set before it answered (the arguments of its
        `set_outputs` tool call, once the runtime found they fit), else null."""
        return outputs_of(self.tool_calls)


class ChatMessageList(ResponseModel):
    data: list[ChatMessage]


class ChatMessageResponse(ResponseModel):
    """The service API's blocking answer (a run that did not complete is an error instead);
    `moderated` as in ChatMessage (`answer` is then the agent's preset reply); `outputs` the
    output variables the model set (null for an agent without any)."""

    conversation_id: str
    message_id: str
    answer: str
    status: Literal["completed"]
    usage: Usage
    tool_calls: list[ToolCallRecord]
    moderated: Moderated | None = None
    outputs: dict[str, Any] | None = None


# Server-sent events: each is `event: <event>` and `data: <data as one line of JSON>`.


class MessageStartEvent(ResponseModel):
    conversation_id: str
    message_id: str


class MessageDeltaEvent(ResponseModel):
    text: str


class MessageReplaceEvent(ResponseModel):
    """Content moderation flagged the answer: everything shown of it so far is replaced by
    `text`, the agent's preset reply, and no further piece of it follows."""

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
    citations: list[Citation] = []


class AnswerEvent(ResponseModel):
    answer: str


class MessageEndEvent(ResponseModel):
    conversation_id: str
    message_id: str
    usage: Usage
    moderated: Moderated | None = None
    outputs: dict[str, Any] | None = None


class WebAppStreamEvent(ResponseModel):
    """One event of the web app's reply stream: `message_start` (MessageStartEvent), then
    `message_delta` (MessageDeltaEvent), `tool_call` (ToolCallEvent) and `tool_result`
    (ToolResultEvent) as they happen, `message_replace` (MessageReplaceEvent) when content
    moderation flags the answer, and last `message_end` (the stored ChatMessage, whatever its
    status) or `error` (ErrorResponse: the reply could not be stored)."""

    event: Literal[
        "message_start",
        "message_delta",
        "message_replace",
        "tool_call",
        "tool_result",
        "message_end",
        "error",
    ]
    data: (
        MessageStartEvent
        | MessageDeltaEvent
        | MessageReplaceEvent
        | ToolCallEvent
        | ToolResultEvent
        | ChatMessage
        | ErrorResponse
    )


class ServiceApiStreamEvent(ResponseModel):
    """One event of the service API's streaming answer: `message` (AnswerEvent: the next piece
    of the answer), `message_replace` (AnswerEvent: content moderation flagged the answer, which
    is replaced by the preset reply in `answer`; no piece follows), `tool_call` (ToolCallEvent),
    `tool_result` (ToolResultEvent), and last `message_end` (MessageEndEvent) or `error`
    (ErrorResponse: the run failed)."""

    event: Literal["message", "message_replace", "tool_call", "tool_result", "message_end", "error"]
    data: AnswerEvent | ToolCallEvent | ToolResultEvent | MessageEndEvent | ErrorResponse


class AppInfo(ResponseModel):
    name: str
    description: str


class AppParameters(ResponseModel):
    opening_statement: str
    suggested_questions: list[str]
