"""SQLite persistence: one connection shared by the request threads and the indexing worker,
serialized by a lock, in WAL mode with foreign keys on. The schema is versioned with
`PRAGMA user_version`; each migration runs once, in order, inside a transaction."""

from __future__ import annotations

import sqlite3
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

_SCHEMA_V1 = """
CREATE TABLE IF NOT EXISTS admins (
    email TEXT PRIMARY KEY,
    password_hash TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    token_hash TEXT PRIMARY KEY,
    email TEXT NOT NULL REFERENCES admins(email) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS providers (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    base_url TEXT NOT NULL,
    api_key TEXT NOT NULL,
    status TEXT NOT NULL,
    error TEXT,
    validated_at TEXT,
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS models (
    id TEXT PRIMARY KEY,
    provider_id TEXT NOT NULL REFERENCES providers(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    active INTEGER NOT NULL DEFAULT 0,
    UNIQUE (provider_id, name)
);
CREATE TABLE IF NOT EXISTS tool_credentials (
    id TEXT PRIMARY KEY,
    tool TEXT NOT NULL,
    name TEXT NOT NULL,
    base_url TEXT,
    secret TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS datasets (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    description TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS documents (
    id TEXT PRIMARY KEY,
    dataset_id TEXT NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    size INTEGER NOT NULL,
    content TEXT NOT NULL,
    indexing_status TEXT NOT NULL,
    error TEXT,
    created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS documents_by_status ON documents (indexing_status, created_at);
-- `pk` is an explicit INTEGER PRIMARY KEY so the FTS index can point at a rowid that never changes.
CREATE TABLE IF NOT EXISTS segments (
    pk INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    content TEXT NOT NULL,
    enabled INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX IF NOT EXISTS segments_by_document ON segments (document_id, position);
CREATE VIRTUAL TABLE IF NOT EXISTS segments_fts USING fts5(
    content, content='segments', content_rowid='pk', tokenize='porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER IF NOT EXISTS segments_fts_insert AFTER INSERT ON segments BEGIN
    INSERT INTO segments_fts (rowid, content) VALUES (new.pk, new.content);
END;
CREATE TRIGGER IF NOT EXISTS segments_fts_delete AFTER DELETE ON segments BEGIN
    INSERT INTO segments_fts (segments_fts, rowid, content) VALUES ('delete', old.pk, old.content);
END;
CREATE TABLE IF NOT EXISTS agents (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    description TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    draft_config TEXT NOT NULL,
    draft_revision INTEGER NOT NULL,
    draft_updated_at TEXT NOT NULL,
    site_token TEXT NOT NULL UNIQUE,
    web_app_enabled INTEGER NOT NULL DEFAULT 0,
    service_api_enabled INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS agent_versions (
    agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    config TEXT NOT NULL,
    published_at TEXT NOT NULL,
    PRIMARY KEY (agent_id, version)
);
CREATE TABLE IF NOT EXISTS api_keys (
    id TEXT PRIMARY KEY,
    agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    secret_hash TEXT NOT NULL UNIQUE,
    prefix TEXT NOT NULL,
    created_at TEXT NOT NULL,
    last_used_at TEXT
);
CREATE TABLE IF NOT EXISTS agent_files (
    id TEXT PRIMARY KEY,
    agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    size INTEGER NOT NULL,
    content_type TEXT NOT NULL,
    content BLOB NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS conversations (
    id TEXT PRIMARY KEY,
    agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS messages (
    id TEXT PRIMARY KEY,
    conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    role TEXT NOT NULL,
    content TEXT NOT NULL,
    created_at TEXT NOT NULL
);
"""

# Chat: who a conversation belongs to, and how each reply ended (tool calls and usage as JSON).
_SCHEMA_V2 = """
ALTER TABLE conversations ADD COLUMN source TEXT NOT NULL DEFAULT 'web_app';
ALTER TABLE conversations ADD COLUMN end_user TEXT;
ALTER TABLE messages ADD COLUMN status TEXT NOT NULL DEFAULT 'completed';
ALTER TABLE messages ADD COLUMN error_code TEXT;
ALTER TABLE messages ADD COLUMN error_message TEXT;
ALTER TABLE messages ADD COLUMN tool_calls TEXT NOT NULL DEFAULT '[]';
ALTER TABLE messages ADD COLUMN retries INTEGER NOT NULL DEFAULT 0;
ALTER TABLE messages ADD COLUMN usage TEXT;
ALTER TABLE messages ADD COLUMN agent_version INTEGER;
CREATE INDEX IF NOT EXISTS messages_by_conversation ON messages (conversation_id, position);
"""

# Version notes given at publish; an agent's environment variables (not versioned, like its files).
_SCHEMA_V3 = """
ALTER TABLE agent_versions ADD COLUMN note TEXT NOT NULL DEFAULT '';
CREATE TABLE IF NOT EXISTS agent_env_vars (
    agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    value TEXT NOT NULL,
    secret INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (agent_id, name)
);
"""

# The console's own model choices (the build assistant's decision model, speech to text), as JSON
# by key; and each agent's pending build assistant proposal (at most one), kept until applied or
# discarded. Preview conversations are `conversations` rows with source 'preview'.
_SCHEMA_V4 = """
CREATE TABLE IF NOT EXISTS system_settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS build_proposals (
    agent_id TEXT PRIMARY KEY REFERENCES agents(id) ON DELETE CASCADE,
    description TEXT NOT NULL,
    proposal TEXT NOT NULL,
    created_at TEXT NOT NULL
);
"""

# Who may see a conversation (services/conversations.py): a web app visitor's token hash, or the
# service API key that started it (with `end_user`). Older conversations have none: no one may.
_SCHEMA_V5 = """
ALTER TABLE conversations ADD COLUMN owner TEXT;
"""

# A tool credential's last check (services/tool_checks.py): 'valid' or 'invalid' with its reason.
_SCHEMA_V6 = """
ALTER TABLE tool_credentials ADD COLUMN check_status TEXT;
ALTER TABLE tool_credentials ADD COLUMN check_message TEXT;
ALTER TABLE tool_credentials ADD COLUMN checked_at TEXT;
"""

# Content moderation: which messages a preset reply stood in for ('input' or 'output'), else NULL.
_SCHEMA_V7 = """
ALTER TABLE messages ADD COLUMN moderated TEXT;
"""

# Skills: each archive (a skill's files, by the SHA-256 of their paths and contents) stored once,
# never changed: drafts, published versions and copies of an agent name it by id.
_SCHEMA_V8 = """
CREATE TABLE IF NOT EXISTS skill_archives (
    id TEXT PRIMARY KEY,
    skill TEXT NOT NULL,
    files TEXT NOT NULL,
    created_at TEXT NOT NULL
);
"""

# Index i holds the script that takes the schema from version i to i + 1.
MIGRATIONS: tuple[str, ...] = (
    _SCHEMA_V1,
    _SCHEMA_V2,
    _SCHEMA_V3,
    _SCHEMA_V4,
    _SCHEMA_V5,
    _SCHEMA_V6,
    _SCHEMA_V7,
    _SCHEMA_V8,
)
SCHEMA_VERSION = len(MIGRATIONS)


def new_id() -> str:
    return uuid.uuid4().hex


def utc_now() -> str:
    """ISO 8601 UTC with microseconds, so timestamps sort as text."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def like_pattern(search: str) -> str:
    """A LIKE pattern matching `search` literally anywhere (use with ESCAPE '\\')."""
    escaped = search.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


_Model = TypeVar("_Model", bound=BaseModel)


def to_model(model: type[_Model], row: sqlite3.Row, **fields: Any) -> _Model:
    """`model` from a row's columns by name (columns without a field are ignored); `fields` gives
    what is not shown as stored: parsed JSON, masked secrets, related rows."""
    return model.model_validate({**dict(row), **fields})


def to_timestamp(value: datetime) -> str:
    """The stored form of an aware datetime."""
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def from_timestamp(value: str) -> datetime:
    """The aware datetime a stored timestamp (`utc_now`, `to_timestamp`) holds."""
    return datetime.fromisoformat(value)


class Database:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: we issue BEGIN/COMMIT ourselves, so transactions are explicit.
        self._conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._conn.row_factory = sqlite3.Row
        self._lock = threading.RLock()
        with self._lock:
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA foreign_keys=ON")
            self._conn.execute("PRAGMA synchronous=NORMAL")
            self._conn.execute("PRAGMA busy_timeout=5000")
            self._migrate()

    def _migrate(self) -> None:
        current = self._conn.execute("PRAGMA user_version").fetchone()[0]
        if current > SCHEMA_VERSION:
            raise RuntimeError(f"database schema v{current} is newer than this console (v{SCHEMA_VERSION})")
        for version in range(current, SCHEMA_VERSION):
            with self.write() as conn:
                for statement in _split_script(MIGRATIONS[version]):
                    conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {version + 1}")

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """A write transaction: everything inside commits together or not at all."""
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    @contextmanager
    def read(self) -> Iterator[sqlite3.Connection]:
        """A consistent read of several statements."""
        with self._lock:
            self._conn.execute("BEGIN")
            try:
                yield self._conn
            finally:
                self._conn.execute("COMMIT")

    def close(self) -> None:
        with self._lock:
            self._conn.close()


def _split_script(script: str) -> list[str]:
    """Split a schema script into statements (executescript would commit our transaction)."""
    statements: list[str] = []
    current = ""
    for line in script.splitlines(keepends=True):
        if line.lstrip().startswith("--"):
            continue
        current += line
        if sqlite3.complete_statement(current):
            statements.append(current.strip())
            current = ""
    return [statement for statement in statements if statement]
