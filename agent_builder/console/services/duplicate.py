"""Duplicating an agent: the copy starts from the original's draft configuration, files and
environment variables under a new name, and shares nothing that makes an agent public or used:
no published versions, access switches off, no API keys, no conversations."""

from __future__ import annotations

import secrets

from agent_builder.console.db import Database, new_id, utc_now
from agent_builder.console.schemas.agents import AgentDetail, AgentDuplicate
from agent_builder.console.services.agents import _agent_row, _detail
from agent_builder.console.services.env_vars import copy_env_vars

MAX_NAME_CHARS = 80
COPY_SUFFIX = " (copy)"


def copy_name(name: str) -> str:
    """`<name> (copy)`, shortening the name so the suffix always fits the name limit."""
    return name[: MAX_NAME_CHARS - len(COPY_SUFFIX)].rstrip() + COPY_SUFFIX


def duplicate_agent(db: Database, agent_id: str, body: AgentDuplicate, origin: str) -> AgentDetail:
    copy_id, now = new_id(), utc_now()
    with db.write() as conn:
        original = _agent_row(conn, agent_id)
        conn.execute(
            "INSERT INTO agents (id, name, description, created_at, updated_at, draft_config, "
            "draft_revision, draft_updated_at, site_token) VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?)",
            (
                copy_id,
                body.name or copy_name(original["name"]),
                original["description"] if body.description is None else body.description,
                now,
                now,
                original["draft_config"],
                now,
                secrets.token_urlsafe(12),
            ),
        )
        conn.execute(
            "INSERT INTO agent_files (id, agent_id, name, size, content_type, content, created_at) "
            "SELECT lower(hex(randomblob(16))), ?, name, size, content_type, content, created_at "
            "FROM agent_files WHERE agent_id = ?",
            (copy_id, agent_id),
        )
        copy_env_vars(conn, agent_id, copy_id)
        return _detail(conn, copy_id, origin)
