"""Service API keys of an agent. The secret is shown once at creation; only its SHA-256 hash
and a short prefix are stored."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

from agent_builder.console.db import Database, from_timestamp, new_id, to_model, utc_now
from agent_builder.console.errors import not_found
from agent_builder.console.schemas.api_keys import ApiKey, ApiKeyCreated
from agent_builder.console.services.agents import check_agent

SECRET_PREFIX = "app-"
DEFAULT_KEY_NAME = "API key"


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def create_key(db: Database, agent_id: str, name: str | None) -> ApiKeyCreated:
    secret = SECRET_PREFIX + secrets.token_urlsafe(24)  # 24 random bytes = 32 URL-safe characters
    key_id, key_name, prefix, now = (
        new_id(),
        name or DEFAULT_KEY_NAME,
        secret[: len(SECRET_PREFIX) + 4],
        utc_now(),
    )
    with db.write() as conn:
        check_agent(conn, agent_id)
        conn.execute(
            "INSERT INTO api_keys (id, agent_id, name, secret_hash, prefix, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (key_id, agent_id, key_name, _hash(secret), prefix, now),
        )
    return ApiKeyCreated(
        id=key_id, name=key_name, secret=secret, prefix=prefix, created_at=from_timestamp(now)
    )


def list_keys(db: Database, agent_id: str) -> list[ApiKey]:
    with db.read() as conn:
        check_agent(conn, agent_id)
        rows = conn.execute(
            "SELECT * FROM api_keys WHERE agent_id = ? ORDER BY created_at, id", (agent_id,)
        ).fetchall()
    return [to_model(ApiKey, row, masked=f"{row['prefix']}…") for row in rows]


def revoke_key(db: Database, agent_id: str, key_id: str) -> None:
    with db.write() as conn:
        check_agent(conn, agent_id)
        if (
            conn.execute("DELETE FROM api_keys WHERE id = ? AND agent_id = ?", (key_id, agent_id)).rowcount
            == 0
        ):
            raise not_found("API key")


@dataclass(frozen=True)
class AppKey:
    id: str
    agent_id: str


def authenticate(db: Database, secret: str) -> AppKey | None:
    """The key (and the agent it belongs to), recording the use; None for an unknown key."""
    with db.write() as conn:
        row = conn.execute(
            "SELECT id, agent_id FROM api_keys WHERE secret_hash = ?", (_hash(secret),)
        ).fetchone()
        if row is None:
            return None
        conn.execute("UPDATE api_keys SET last_used_at = ? WHERE id = ?", (utc_now(), row["id"]))
    return AppKey(row["id"], row["agent_id"])
