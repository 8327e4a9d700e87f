"""Published versions read one by one, and restoring one into the draft. A restore writes one new
draft revision and never touches what is published (the web app keeps the latest version)."""

from __future__ import annotations

import sqlite3

from agent_builder.console.db import Database
from agent_builder.console.errors import not_found
from agent_builder.console.schemas.agents import AgentConfig, Draft, PublishedVersion, PublishResult
from agent_builder.console.services.agents import _agent_row, _version, insert_version, write_draft


def _find_version(conn: sqlite3.Connection, agent_id: str, version: int) -> PublishedVersion:
    _agent_row(conn, agent_id)
    row = conn.execute(
        "SELECT * FROM agent_versions WHERE agent_id = ? AND version = ?", (agent_id, version)
    ).fetchone()
    if row is None:
        raise not_found(f"Version {version}")
    return _version(row)


def get_version(db: Database, agent_id: str, version: int) -> PublishedVersion:
    with db.read() as conn:
        return _find_version(conn, agent_id, version)


def restore_version(db: Database, agent_id: str, version: int, revision: int) -> Draft:
    """The draft becomes a copy of `version` if it is still at `revision` (else 409 revision_conflict).
    Datasets deleted since that version was published are left out: a draft never refers to one."""
    with db.write() as conn:
        config = _find_version(conn, agent_id, version).config
        dataset_ids = config.knowledge.dataset_ids
        if dataset_ids:
            marks = ", ".join("?" * len(dataset_ids))
            existing = {
                row["id"]
                for row in conn.execute(f"SELECT id FROM datasets WHERE id IN ({marks})", dataset_ids)
            }
            config.knowledge.dataset_ids = [item for item in dataset_ids if item in existing]
        return write_draft(conn, agent_id, revision, config)


def publish_unchecked(db: Database, agent_id: str, note: str) -> PublishResult:
    """The draft as the next version without the publish checks: for the test seeding router only."""
    with db.write() as conn:
        row = _agent_row(conn, agent_id)
        return insert_version(conn, agent_id, AgentConfig.model_validate_json(row["draft_config"]), note)
