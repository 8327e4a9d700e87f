"""What the chat routes share (the web app, the service API and the configure page's preview):
the runs dependency, server-sent event responses, the chat event stream of the web app and the
preview, and stopping a reply."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool

from agent_builder.console.chat_runs.relay import ChatRun, RunEnd, RunUpdate
from agent_builder.console.chat_runs.runs import ChatRuns
from agent_builder.console.db import Database
from agent_builder.console.errors import ApiError, not_found
from agent_builder.console.schemas.chat import (
    ChatMessage,
    MessageDeltaEvent,
    MessageReplaceEvent,
    MessageStartEvent,
    ServiceApiStreamEvent,
    ToolCallEvent,
    ToolResultEvent,
    WebAppStreamEvent,
)
from agent_builder.console.schemas.errors import ErrorResponse
from agent_builder.console.services import conversations
from agent_builder.console.services.conversations import Owner, Source


def event_stream(events: AsyncIterator[bytes]) -> StreamingResponse:
    return StreamingResponse(
        events,
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


def sse(event: WebAppStreamEvent | ServiceApiStreamEvent) -> bytes:
    return f"event: {event.event}\ndata: {event.data.model_dump_json()}\n\n".encode()


def stream_docs(model: type[BaseModel], description: str) -> dict[int | str, dict[str, Any]]:
    schema = {"$ref": f"#/components/schemas/{model.__name__}"}
    return {200: {"description": description, "content": {"text/event-stream": {"schema": schema}}}}


async def _runs(request: Request) -> ChatRuns:
    runs: ChatRuns = request.app.state.chat_runs
    return runs


RunsDep = Annotated[ChatRuns, Depends(_runs)]


async def chat_events(run: ChatRun) -> AsyncIterator[bytes]:
    """The web app's (and the preview's) reply stream. A reader who leaves does not stop the
    reply (only Stop does): it is stored all the same."""
    start = MessageStartEvent(conversation_id=run.conversation_id, message_id=run.message_id)
    yield sse(WebAppStreamEvent(event="message_start", data=start))
    async for item in run.items():
        yield sse(_chat_event(item))


def _chat_event(item: RunUpdate | RunEnd) -> WebAppStreamEvent:
    match item:
        case MessageDeltaEvent():
            return WebAppStreamEvent(event="message_delta", data=item)
        case MessageReplaceEvent():
            return WebAppStreamEvent(event="message_replace", data=item)
        case ToolCallEvent():
            return WebAppStreamEvent(event="tool_call", data=item)
        case ToolResultEvent():
            return WebAppStreamEvent(event="tool_result", data=item)
        case ChatMessage():
            return WebAppStreamEvent(event="message_end", data=item)
        case ErrorResponse():
            return WebAppStreamEvent(event="error", data=item)


async def stop_reply(
    runs: ChatRuns, db: Database, agent_id: str, source: Source, message_id: str, owner: Owner
) -> ChatMessage:
    """Stop a reply of this agent and surface that is still streaming; the stored reply either
    way (also when it had already ended on its own). 404 for anyone else's message, including one
    in a conversation `owner` did not start."""
    run = runs.active(message_id)
    if (
        run is not None
        and run.agent_id == agent_id
        and run.source == source
        and await run_in_threadpool(conversations.is_owner, db, agent_id, source, run.conversation_id, owner)
    ):
        end = await runs.stop(run)
        if isinstance(end, ErrorResponse):
            raise ApiError(500, end.code, end.message)
        return end
    message = await run_in_threadpool(conversations.find_message, db, agent_id, source, message_id, owner)
    if message is None or message.role != "assistant":
        raise not_found("Message")
    return message
