"""The public chat surfaces: the web app's JSON API (no auth, gated by the web app switch) and
the service API (`/v1`, app API keys, gated by the service API switch). Both answer through the
agent runtime (chat_runs); their event streams are documented in docs/console.md."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import StreamingResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, StringConstraints

from agent_builder.console.chat_runs.relay import ChatRun, RunEnd, RunUpdate
from agent_builder.console.errors import ApiError, not_found
from agent_builder.console.public import load_web_app_agent
from agent_builder.console.routes.chat_streams import (
    RunsDep,
    chat_events,
    event_stream,
    sse,
    stop_reply,
    stream_docs,
)
from agent_builder.console.routes.common import DbDep, errors
from agent_builder.console.schemas.chat import (
    AnswerEvent,
    AppInfo,
    AppParameters,
    ChatMessage,
    ChatMessageList,
    ChatMessageRequest,
    ChatMessageResponse,
    MessageDeltaEvent,
    MessageEndEvent,
    MessageReplaceEvent,
    ServiceApiStreamEvent,
    ToolCallEvent,
    ToolResultEvent,
    WebAppMessageRequest,
    WebAppStreamEvent,
)
from agent_builder.console.schemas.errors import ErrorResponse
from agent_builder.console.security.throttle import client_key
from agent_builder.console.services import agents, api_keys, conversations
from agent_builder.console.services.conversations import Owner
from agent_builder.console.visitors import Visitor, known_visitor, visitor

# Documented inside event streams only, so app.py adds them to the OpenAPI components itself.
STREAM_EVENT_MODELS: tuple[type[BaseModel], ...] = (WebAppStreamEvent, ServiceApiStreamEvent)


WebAppAgent = Annotated[agents.PublishedAgent, Depends(load_web_app_agent)]
VisitorDep = Annotated[Visitor, Depends(visitor)]


def _known_visitor(request: Request) -> Owner:
    """The visitor's conversations; without a visitor cookie there are none to see."""
    owner = known_visitor(request)
    if owner is None:
        raise not_found("Conversation")
    return Owner(owner)


KnownVisitor = Annotated[Owner, Depends(_known_visitor)]

web_app_router = APIRouter(prefix="/chat/{site_token}/api", tags=["web-app"], responses=errors(403, 404, 422))


@web_app_router.post(
    "/messages",
    response_class=StreamingResponse,  # no media type of its own: the docs below name it
    responses={
        **stream_docs(WebAppStreamEvent, "The reply as server-sent events (see WebAppStreamEvent)."),
        **errors(409, 429, 503),
    },
)
async def send_web_app_message(
    body: WebAppMessageRequest,
    agent: WebAppAgent,
    runs: RunsDep,
    request: Request,
    guest: VisitorDep,
) -> StreamingResponse:
    """Ask the agent; the reply streams back as server-sent events: `message_start`
    `{conversation_id, message_id}`, then `message_delta` `{text}`, `tool_call`
    `{id, name, arguments}` and `tool_result` `{id, name, output, is_error, citations}` as they happen, and
    last `message_end` (the stored ChatMessage, status `completed`, `failed` with `error`, or
    `cancelled`) or `error` `{code, message}` when the reply could not be stored. Errors before
    the stream starts are JSON: 404 unknown conversation (or another visitor's), 409
    `model_unavailable`, 429 `too_many_runs` (with `Retry-After`: the visitor, their network or
    the agent has as many replies in progress as allowed), 503 `runtime_unavailable`. A
    conversation belongs to the visitor cookie that started it; a first message without one sets
    it. A reply goes on when its reader leaves (a reload shows it), and counts until it ends."""
    owner = Owner(guest.owner)
    client = client_key(request.client.host if request.client else None)
    run = await runs.start(agent, "web_app", body.query, body.conversation_id, owner, client)
    response = event_stream(chat_events(run))
    guest.remember(request, response)
    return response


@web_app_router.post("/messages/{message_id}/stop")
async def stop_web_app_message(
    message_id: str, agent: WebAppAgent, runs: RunsDep, db: DbDep, owner: KnownVisitor
) -> ChatMessage:
    """Stop a reply that is still streaming: the runtime run is cancelled and the reply is kept
    with what was streamed so far, status `cancelled`. Returns the stored reply (also when it had
    already ended on its own). Only the visitor whose conversation it is may stop it."""
    return await stop_reply(runs, db, agent.id, "web_app", message_id, owner)


@web_app_router.get("/conversations/{conversation_id}/messages")
def list_web_app_messages(
    conversation_id: str, agent: WebAppAgent, db: DbDep, owner: KnownVisitor
) -> ChatMessageList:
    """A web app conversation's stored messages, oldest first (the page restores itself from it).
    404 unless the visitor cookie is the one that started it."""
    return ChatMessageList(data=conversations.list_messages(db, agent.id, "web_app", conversation_id, owner))


_app_key_scheme = HTTPBearer(
    auto_error=False, scheme_name="AppApiKey", description="An agent's service API key: `Bearer app-...`"
)


@dataclass(frozen=True)
class ServiceCaller:
    key_id: str
    agent: agents.PublishedAgent


def service_caller(
    db: DbDep, credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_app_key_scheme)]
) -> ServiceCaller:
    """The API key and the published agent it belongs to; its service API switch must be on."""
    key = api_keys.authenticate(db, credentials.credentials) if credentials else None
    if key is None:
        raise ApiError(401, "invalid_api_key", "Missing, unknown or revoked API key.")
    agent = agents.find_published(db, agent_id=key.agent_id)
    if agent is None or not agent.service_api_enabled:
        raise ApiError(403, "service_api_disabled", "The service API of this agent is disabled.")
    return ServiceCaller(key.id, agent)


Caller = Annotated[ServiceCaller, Depends(service_caller)]


async def service_agent(caller: Caller) -> agents.PublishedAgent:
    return caller.agent


ServiceAgent = Annotated[agents.PublishedAgent, Depends(service_agent)]
EndUser = Annotated[str, StringConstraints(min_length=1, max_length=200)]

service_api_router = APIRouter(prefix="/v1", tags=["service-api"], responses=errors(401, 403, 422))


@service_api_router.get("/info")
def get_app_info(agent: ServiceAgent) -> AppInfo:
    return AppInfo(name=agent.name, description=agent.description)


@service_api_router.get("/parameters")
def get_app_parameters(agent: ServiceAgent) -> AppParameters:
    return AppParameters(
        opening_statement=agent.config.opening_statement,
        suggested_questions=list(agent.config.suggested_questions),
    )


@service_api_router.post(
    "/chat-messages",
    response_model=ChatMessageResponse,
    responses={
        **stream_docs(
            ServiceApiStreamEvent,
            "Blocking: the answer as JSON. Streaming: server-sent events (see ServiceApiStreamEvent).",
        ),
        **errors(404, 409, 429, 502, 503),
    },
)
async def send_chat_message(
    body: ChatMessageRequest, caller: Caller, runs: RunsDep, request: Request
) -> ChatMessageResponse | StreamingResponse:
    """Ask the agent, in a new conversation or (with `conversation_id`) a stored one.

    `blocking` waits for the answer: `200 ChatMessageResponse`, or `502 {code, message}` when the
    run failed (`code` is the runtime's: `provider_auth_failed`, `provider_error`,
    `provider_unavailable`, `tool_loop_limit`, ...).

    `streaming` answers with server-sent events: `message` `{answer}` (the next piece of the
    answer), `message_replace` `{answer}` (content moderation flagged the answer: what came so far
    is replaced by the preset reply, and no piece follows), `tool_call` `{id, name, arguments}`,
    `tool_result` `{id, name, output, is_error}`, and last either `message_end`
    `{conversation_id, message_id, usage, moderated}` or `error` `{code, message}`. A question
    that content moderation flags never reaches the model: the answer is the agent's preset
    reply, `moderated` `input`. Closing the stream early cancels the run; so does a blocking client that
    goes away before its answer.

    Errors before any answer are JSON: 404 unknown conversation, 409 `model_unavailable`,
    429 `too_many_runs` (with `Retry-After`: this key and `user`, or the agent, has as many
    replies in progress as allowed), 503 `runtime_unavailable`. A conversation belongs to the API
    key and `user` that started it: continuing it with another key or user is a 404."""
    owner = Owner(caller.key_id, body.user)
    run = await runs.start(caller.agent, "service_api", body.query, body.conversation_id, owner)
    if body.response_mode == "streaming":
        return event_stream(_service_api_events(run))
    end = await _end_unless_left(run, request)
    if isinstance(end, ChatMessage) and end.status == "completed" and end.usage is not None:
        return ChatMessageResponse(
            conversation_id=end.conversation_id,
            message_id=end.id,
            answer=end.content,
            status="completed",
            usage=end.usage,
            tool_calls=end.tool_calls,
            moderated=end.moderated,
            outputs=end.outputs,
        )
    error = _run_error(end)
    raise ApiError(502, error.code, error.message)


async def _end_unless_left(run: ChatRun, request: Request) -> RunEnd:
    """The run's end; a client that goes away before it cancels the run, as closing a stream
    does (nobody is left to read the answer, and the run would hold its slots until it ended)."""
    left = asyncio.create_task(_client_left(request))
    ended = asyncio.ensure_future(run.end())
    try:
        await asyncio.wait({left, ended}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        left.cancel()
    if not ended.done():
        run.cancel()
    return await ended


async def _client_left(request: Request) -> None:
    # The body has been read: the next message the server hands over is the disconnect.
    while (await request.receive())["type"] != "http.disconnect":
        pass


async def _service_api_events(run: ChatRun) -> AsyncIterator[bytes]:
    try:
        async for item in run.items():
            yield sse(_service_api_event(item))
    finally:
        # Left before the end (client disconnect): nobody reads the answer, so stop the run.
        run.cancel()


def _service_api_event(item: RunUpdate | RunEnd) -> ServiceApiStreamEvent:
    match item:
        case MessageDeltaEvent():
            return ServiceApiStreamEvent(event="message", data=AnswerEvent(answer=item.text))
        case MessageReplaceEvent():
            return ServiceApiStreamEvent(event="message_replace", data=AnswerEvent(answer=item.text))
        case ToolCallEvent():
            return ServiceApiStreamEvent(event="tool_call", data=item)
        case ToolResultEvent():
            return ServiceApiStreamEvent(event="tool_result", data=item)
        case ChatMessage(status="completed", usage=usage) if usage is not None:
            end = MessageEndEvent(
                conversation_id=item.conversation_id,
                message_id=item.id,
                usage=usage,
                moderated=item.moderated,
                outputs=item.outputs,
            )
            return ServiceApiStreamEvent(event="message_end", data=end)
        case _:
            return ServiceApiStreamEvent(event="error", data=_run_error(item))


def _run_error(end: RunEnd) -> ErrorResponse:
    if isinstance(end, ErrorResponse):
        return end
    return end.error or ErrorResponse(
        code="run_cancelled", message="The run was cancelled before it finished."
    )


@service_api_router.get("/conversations/{conversation_id}/messages", responses=errors(404))
def list_conversation_messages(
    conversation_id: str,
    caller: Caller,
    db: DbDep,
    user: Annotated[EndUser, Query(description="The `user` the conversation was started with")],
) -> ChatMessageList:
    """A service API conversation's stored messages, oldest first: 404 unless this API key and
    `user` started it."""
    owner = Owner(caller.key_id, user)
    messages = conversations.list_messages(db, caller.agent.id, "service_api", conversation_id, owner)
    return ChatMessageList(data=messages)
