"""Conversations and their messages: written by chat (a question when its run starts, the reply
when the run ends) and by the test seeding router (backdated conversations)."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Literal

from pydantic import TypeAdapter

from agent_builder.console.db import Database, new_id, to_model, to_timestamp
from agent_builder.console.errors import ApiError, not_found
from agent_builder.console.schemas.chat import ChatMessage, MessageRole, ToolCallRecord, Usage
from agent_builder.console.schemas.errors import ErrorResponse
from agent_builder.console.schemas.seeding import SeedConversationRequest
from agent_builder.console.services.agents import check_agent

# Each surface sees only its own conversations: a web app visitor cannot read service API chats,
# and the configure page's preview chats (with the draft) appear on neither public surface.
Source = Literal["web_app", "service_api", "preview"]


@dataclass(frozen=True)
class Owner:
    """Who may see a conversation: a web app visitor (`key` is their token's hash), or a service
    API key (`key` is its id) with the client's `user`. The default, nobody, matches only
    conversations without an owner (the preview's, and those from before owners)."""

    key: str | None = None
    end_user: str | None = None


NOBODY = Owner()

_TOOL_CALLS = TypeAdapter(list[ToolCallRecord])


def create_conversation(db: Database, body: SeedConversationRequest, owner: Owner) -> str:
    """A backdated conversation; its messages get positions in chronological order (a stable sort,
    so a question and its answer given the same time keep their order)."""
    conversation_id, created_at = new_id(), to_timestamp(body.created_at)
    timed = sorted(
        ((message.created_at or body.created_at, message) for message in body.messages),
        key=lambda item: item[0],
    )
    with db.write() as conn:
        check_agent(conn, body.agent_id)
        conn.execute(
            "INSERT INTO conversations (id, agent_id, created_at, owner) VALUES (?, ?, ?, ?)",
            (conversation_id, body.agent_id, created_at, owner.key),
        )
        conn.executemany(
            "INSERT INTO messages (id, conversation_id, position, role, content, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [
                (new_id(), conversation_id, position, message.role, message.content, to_timestamp(when))
                for position, (when, message) in enumerate(timed)
            ],
        )
    return conversation_id


def _check_conversation(
    conn: sqlite3.Connection, agent_id: str, source: Source, conversation_id: str, owner: Owner
) -> None:
    """404 unless the conversation is the agent's, on this surface, and `owner`'s: a client that
    knows only its id learns nothing, not even that it exists."""
    row = conn.execute(
        "SELECT 1 FROM conversations WHERE id = ? AND agent_id = ? AND source = ? "
        "AND owner IS ? AND end_user IS ?",
        (conversation_id, agent_id, source, owner.key, owner.end_user),
    ).fetchone()
    if row is None:
        raise not_found("Conversation")


def is_owner(db: Database, agent_id: str, source: Source, conversation_id: str, owner: Owner) -> bool:
    with db.read() as conn:
        try:
            _check_conversation(conn, agent_id, source, conversation_id, owner)
        except ApiError:
            return False
    return True


def history(
    db: Database, agent_id: str, source: Source, conversation_id: str, owner: Owner = NOBODY
) -> list[tuple[MessageRole, str]]:
    """(role, content) of the conversation's completed messages, oldest first: what the model is
    shown of the conversation so far. Failed and stopped replies are left out, and so are questions
    that content moderation flagged, with their preset replies: they never reach the model."""
    with db.read() as conn:
        _check_conversation(conn, agent_id, source, conversation_id, owner)
        rows = conn.execute(
            "SELECT role, content FROM messages WHERE conversation_id = ? AND status = 'completed' "
            "AND moderated IS NOT 'input' ORDER BY position",
            (conversation_id,),
        ).fetchall()
    return [(row["role"], row["content"]) for row in rows]


def start_turn(
    db: Database, question: ChatMessage, agent_id: str, source: Source, owner: Owner, new: bool
) -> None:
    """Store the user's question, first creating its conversation (for `owner`) when `new`."""
    with db.write() as conn:
        if new:
            conn.execute(
                "INSERT INTO conversations (id, agent_id, created_at, source, end_user, owner) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (
                    question.conversation_id,
                    agent_id,
                    to_timestamp(question.created_at),
                    source,
                    owner.end_user,
                    owner.key,
                ),
            )
        _append(conn, question)


def save_reply(db: Database, reply: ChatMessage) -> None:
    with db.write() as conn:
        _append(conn, reply)


def _append(conn: sqlite3.Connection, message: ChatMessage) -> None:
    conn.execute(
        "INSERT INTO messages (id, conversation_id, position, role, content, created_at, status, "
        "error_code, error_message, tool_calls, retries, usage, agent_version, moderated) VALUES (?, ?, "
        "(SELECT COALESCE(MAX(position), -1) + 1 FROM messages WHERE conversation_id = ?), "
        "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            message.id,
            message.conversation_id,
            message.conversation_id,
            message.role,
            message.content,
            to_timestamp(message.created_at),
            message.status,
            message.error.code if message.error else None,
            message.error.message if message.error else None,
            _TOOL_CALLS.dump_json(message.tool_calls).decode(),
            message.retries,
            message.usage.model_dump_json() if message.usage else None,
            message.agent_version,
            message.moderated,
        ),
    )


def list_messages(
    db: Database, agent_id: str, source: Source, conversation_id: str, owner: Owner = NOBODY
) -> list[ChatMessage]:
    with db.read() as conn:
        _check_conversation(conn, agent_id, source, conversation_id, owner)
        rows = conn.execute(
            "SELECT * FROM messages WHERE conversation_id = ? ORDER BY position", (conversation_id,)
        ).fetchall()
    return [_message(row) for row in rows]


def find_message(
    db: Database, agent_id: str, source: Source, message_id: str, owner: Owner = NOBODY
) -> ChatMessage | None:
    with db.read() as conn:
        row = conn.execute(
            "SELECT m.* FROM messages m JOIN conversations c ON c.id = m.conversation_id "
            "WHERE m.id = ? AND c.agent_id = ? AND c.source = ? AND c.owner IS ? AND c.end_user IS ?",
            (message_id, agent_id, source, owner.key, owner.end_user),
        ).fetchone()
    return None if row is None else _message(row)


def _message(row: sqlite3.Row) -> ChatMessage:
    error_code = row["error_code"]
    return to_model(
        ChatMessage,
        row,
        error=None if error_code is None else ErrorResponse(code=error_code, message=row["error_message"]),
        tool_calls=_TOOL_CALLS.validate_json(row["tool_calls"]),
        usage=None if row["usage"] is None else Usage.model_validate_json(row["usage"]),
    )
