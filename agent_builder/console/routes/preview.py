"""The configure page's preview: chat with an agent's current draft (never its published version)
through the agent runtime, in conversations of their own (source `preview`) that the web app and
the service API never see. Same event stream as the web app (docs/console.md, "Preview")."""

from __future__ import annotations

from fastapi import APIRouter, Depends
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from agent_builder.console.auth import require_admin
from agent_builder.console.routes.chat_streams import (
    RunsDep,
    chat_events,
    event_stream,
    stop_reply,
    stream_docs,
)
from agent_builder.console.routes.common import DbDep, errors
from agent_builder.console.schemas.chat import (
    ChatMessage,
    ChatMessageList,
    WebAppMessageRequest,
    WebAppStreamEvent,
)
from agent_builder.console.services import agents, conversations
from agent_builder.console.services.conversations import NOBODY

router = APIRouter(
    prefix="/console/api/agents/{agent_id}/preview",
    tags=["preview"],
    dependencies=[Depends(require_admin)],
    responses=errors(401, 404, 422),
)


@router.post(
    "/messages",
    response_class=StreamingResponse,
    responses={
        **stream_docs(WebAppStreamEvent, "The reply as server-sent events (see WebAppStreamEvent)."),
        **errors(409, 503),
    },
)
async def send_preview_message(
    agent_id: str, body: WebAppMessageRequest, db: DbDep, runs: RunsDep
) -> StreamingResponse:
    """Ask the agent's draft as it is saved now; the reply streams back exactly like the web
    app's. A draft saved while a reply streams applies from the next message. Errors before the
    stream starts are JSON: 404 unknown agent or conversation, 409 `model_unavailable`, 503
    `runtime_unavailable`."""
    draft = await run_in_threadpool(agents.find_draft, db, agent_id)
    # The console has one administrator, so preview conversations need no owner of their own.
    run = await runs.start(draft, "preview", body.query, body.conversation_id, NOBODY)
    return event_stream(chat_events(run))


@router.post("/messages/{message_id}/stop")
async def stop_preview_message(agent_id: str, message_id: str, runs: RunsDep, db: DbDep) -> ChatMessage:
    """Stop a preview reply that is still streaming; returns the stored reply."""
    return await stop_reply(runs, db, agent_id, "preview", message_id, NOBODY)


@router.get("/conversations/{conversation_id}/messages")
def list_preview_messages(agent_id: str, conversation_id: str, db: DbDep) -> ChatMessageList:
    """A preview conversation's stored messages, oldest first (the pane restores itself from it)."""
    return ChatMessageList(data=conversations.list_messages(db, agent_id, "preview", conversation_id))
