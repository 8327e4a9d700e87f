"""Conversations and their messages (written by chat; the test seeding router backdates them)."""

from __future__ import annotations

from agent_builder.console.db import Database, new_id, to_timestamp
from agent_builder.console.errors import not_found
from agent_builder.console.schemas import SeedConversationRequest


def create_conversation(db: Database, body: SeedConversationRequest) -> str:
    conversation_id, created_at = new_id(), to_timestamp(body.created_at)
    with db.write() as conn:
        if conn.execute("SELECT 1 FROM agents WHERE id = ?", (body.agent_id,)).fetchone() is None:
            raise not_found("Agent")
        conn.execute(
            "INSERT INTO conversations (id, agent_id, created_at) VALUES (?, ?, ?)",
            (conversation_id, body.agent_id, created_at),
        )
        conn.executemany(
            "INSERT INTO messages (id, conversation_id, position, role, content, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [
                (new_id(), conversation_id, position, message.role, message.content, created_at)
                for position, message in enumerate(body.messages)
            ],
        )
    return conversation_id
