"""Agents: a draft config guarded by an optimistic `revision`, immutable published versions
(v1, v2, ...), and the access switches that the first publish turns on."""

from __future__ import annotations

import json
import secrets
import sqlite3
from dataclasses import dataclass
from typing import Protocol

from agent_builder.console.db import Database, from_timestamp, like_pattern, new_id, to_model, utc_now
from agent_builder.console.errors import ApiError, not_found
from agent_builder.console.schemas.agents import (
    Access,
    AccessUpdate,
    AgentConfig,
    AgentCreate,
    AgentDetail,
    AgentList,
    AgentSummary,
    AgentUpdate,
    Draft,
    PublishedVersion,
    PublishResult,
)
from agent_builder.console.schemas.web_app_settings import WebAppSettings
from agent_builder.console.services import env_references, skill_archives
from agent_builder.console.services.providers import is_model_active

UNPUBLISHED_REASON = "Publish the agent to enable access."


def _dump(config: AgentConfig) -> str:
    return json.dumps(config.model_dump(mode="json"), sort_keys=True)


def _agent_row(conn: sqlite3.Connection, agent_id: str) -> sqlite3.Row:
    row: sqlite3.Row | None = conn.execute("SELECT * FROM agents WHERE id = ?", (agent_id,)).fetchone()
    if row is None:
        raise not_found("Agent")
    return row


def check_agent(conn: sqlite3.Connection, agent_id: str) -> None:
    """Raises 404 unless the agent exists (for the services whose rows belong to an agent)."""
    if conn.execute("SELECT 1 FROM agents WHERE id = ?", (agent_id,)).fetchone() is None:
        raise not_found("Agent")


def _latest_version(conn: sqlite3.Connection, agent_id: str) -> PublishedVersion | None:
    row = conn.execute(
        "SELECT * FROM agent_versions WHERE agent_id = ? ORDER BY version DESC LIMIT 1", (agent_id,)
    ).fetchone()
    return None if row is None else _version(row)


def _version(row: sqlite3.Row) -> PublishedVersion:
    return to_model(PublishedVersion, row, config=AgentConfig.model_validate_json(row["config"]))


def _access(row: sqlite3.Row, published: bool, origin: str) -> Access:
    return Access(
        published=published,
        unavailable_reason=None if published else UNPUBLISHED_REASON,
        web_app_enabled=published and bool(row["web_app_enabled"]),
        service_api_enabled=published and bool(row["service_api_enabled"]),
        web_app_url=f"{origin}/chat/{row['site_token']}" if published else None,
        service_api_base_url=f"{origin}/v1" if published else None,
        api_reference_url=f"{origin}/docs/service-api",
    )


def _detail(conn: sqlite3.Connection, agent_id: str, origin: str) -> AgentDetail:
    row = _agent_row(conn, agent_id)
    draft_config = AgentConfig.model_validate_json(row["draft_config"])
    published = _latest_version(conn, agent_id)
    return to_model(
        AgentDetail,
        row,
        draft=Draft(revision=row["draft_revision"], config=draft_config, updated_at=row["draft_updated_at"]),
        published=published,
        # Before the first publish everything in the draft is unpublished.
        has_unpublished_changes=published is None or _dump(published.config) != _dump(draft_config),
        access=_access(row, published is not None, origin),
    )


def get_agent(db: Database, agent_id: str, origin: str) -> AgentDetail:
    with db.read() as conn:
        return _detail(conn, agent_id, origin)


def list_agents(db: Database, search: str | None, limit: int, offset: int) -> AgentList:
    where, params = ("WHERE name LIKE ? ESCAPE '\\'", [like_pattern(search)]) if search else ("", [])
    with db.read() as conn:
        total = conn.execute(f"SELECT COUNT(*) FROM agents {where}", params).fetchone()[0]
        rows = conn.execute(
            "SELECT id, name, description, updated_at, "
            "(SELECT MAX(version) FROM agent_versions WHERE agent_id = agents.id) AS published_version "
            f"FROM agents {where} ORDER BY updated_at DESC, id LIMIT ? OFFSET ?",
            [*params, limit, offset],
        ).fetchall()
    return AgentList(data=[to_model(AgentSummary, row) for row in rows], total=total)


def create_agent(db: Database, body: AgentCreate, origin: str) -> AgentDetail:
    agent_id, now = new_id(), utc_now()
    with db.write() as conn:
        conn.execute(
            "INSERT INTO agents (id, name, description, created_at, updated_at, draft_config, "
            "draft_revision, draft_updated_at, site_token) VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?)",
            (
                agent_id,
                body.name,
                body.description,
                now,
                now,
                _dump(AgentConfig()),
                now,
                secrets.token_urlsafe(12),
            ),
        )
        return _detail(conn, agent_id, origin)


def update_agent(db: Database, agent_id: str, body: AgentUpdate, origin: str) -> AgentDetail:
    with db.write() as conn:
        row = _agent_row(conn, agent_id)
        conn.execute(
            "UPDATE agents SET name = ?, description = ?, updated_at = ? WHERE id = ?",
            (
                body.name or row["name"],
                row["description"] if body.description is None else body.description,
                utc_now(),
                agent_id,
            ),
        )
        return _detail(conn, agent_id, origin)


def delete_agent(db: Database, agent_id: str) -> None:
    with db.write() as conn:
        # Versions, API keys, files and conversations go with it (ON DELETE CASCADE).
        if conn.execute("DELETE FROM agents WHERE id = ?", (agent_id,)).rowcount == 0:
            raise not_found("Agent")


def save_draft(db: Database, agent_id: str, revision: int, config: AgentConfig) -> Draft:
    with db.write() as conn:
        return write_draft(conn, agent_id, revision, config)


def write_draft(conn: sqlite3.Connection, agent_id: str, revision: int, config: AgentConfig) -> Draft:
    """Replace the draft if it is still at `revision` (else 409): one new revision. Instructions
    that reference a secret variable are refused (422 `secret_in_instructions`): every way into
    the draft (a save, a restore, a build assistant proposal) comes through here."""
    now = utc_now()
    row = _agent_row(conn, agent_id)
    if row["draft_revision"] != revision:
        raise ApiError(
            409,
            "revision_conflict",
            "This agent was changed elsewhere: reload to get the latest version.",
            current_revision=row["draft_revision"],
        )
    env_references.check_instructions(conn, agent_id, config.instructions)
    skill_archives.check_config(conn, config)
    conn.execute(
        "UPDATE agents SET draft_config = ?, draft_revision = ?, draft_updated_at = ?, updated_at = ? "
        "WHERE id = ?",
        (_dump(config), revision + 1, now, now, agent_id),
    )
    return Draft(revision=revision + 1, config=config, updated_at=from_timestamp(now))


def save_web_app_settings(db: Database, agent_id: str, settings: WebAppSettings) -> Draft:
    """The draft with these web app settings and the rest as it is now: one new revision, taken
    whatever the revision (it changes no other field, so it overwrites nobody's edit)."""
    with db.write() as conn:
        row = _agent_row(conn, agent_id)
        config = AgentConfig.model_validate_json(row["draft_config"]).model_copy(update={"web_app": settings})
        return write_draft(conn, agent_id, row["draft_revision"], config)


def _publish_problems(conn: sqlite3.Connection, agent_id: str, config: AgentConfig) -> list[str]:
    reasons: list[str] = []
    if config.model is None:
        reasons.append("No model selected.")
    elif not is_model_active(conn, config.model.provider_id, config.model.name):
        reasons.append(f"Model {config.model.name!r} was not found or is inactive.")
    if not config.instructions.strip():
        reasons.append("Instructions are empty.")
    for dataset_id in config.knowledge.dataset_ids:
        if conn.execute("SELECT 1 FROM datasets WHERE id = ?", (dataset_id,)).fetchone() is None:
            reasons.append(f"Knowledge dataset {dataset_id} no longer exists.")
    # A draft saved before secrets were refused in the instructions.
    for name in env_references.secrets_in(conn, agent_id, config.instructions):
        reasons.append(f"Instructions use {{{{env.{name}}}}}, a secret variable: remove it.")
    return reasons


def publish(db: Database, agent_id: str, note: str = "") -> PublishResult:
    with db.write() as conn:
        row = _agent_row(conn, agent_id)
        config = AgentConfig.model_validate_json(row["draft_config"])
        reasons = _publish_problems(conn, agent_id, config)
        if reasons:
            raise ApiError(
                409, "draft_invalid", "The draft cannot be published: " + " ".join(reasons), reasons=reasons
            )
        return insert_version(conn, agent_id, config, note)


def insert_version(conn: sqlite3.Connection, agent_id: str, config: AgentConfig, note: str) -> PublishResult:
    """The next version of the agent, holding `config` (publish checks it first; test seeding does not)."""
    now = utc_now()
    version = conn.execute(
        "SELECT COALESCE(MAX(version), 0) + 1 FROM agent_versions WHERE agent_id = ?", (agent_id,)
    ).fetchone()[0]
    conn.execute(
        "INSERT INTO agent_versions (agent_id, version, config, published_at, note) VALUES (?, ?, ?, ?, ?)",
        (agent_id, version, _dump(config), now, note),
    )
    # Access switches start enabled at the first publish; later publishes leave them alone.
    switches = ", web_app_enabled = 1, service_api_enabled = 1" if version == 1 else ""
    conn.execute(f"UPDATE agents SET updated_at = ?{switches} WHERE id = ?", (now, agent_id))
    return PublishResult(version=version, published_at=from_timestamp(now), note=note)


def list_versions(db: Database, agent_id: str) -> list[PublishedVersion]:
    with db.read() as conn:
        _agent_row(conn, agent_id)
        rows = conn.execute(
            "SELECT * FROM agent_versions WHERE agent_id = ? ORDER BY version DESC", (agent_id,)
        ).fetchall()
    return [_version(row) for row in rows]


def update_access(db: Database, agent_id: str, body: AccessUpdate, origin: str) -> Access:
    with db.write() as conn:
        row = _agent_row(conn, agent_id)
        if _latest_version(conn, agent_id) is None:
            raise ApiError(409, "agent_not_published", UNPUBLISHED_REASON)
        web_app = row["web_app_enabled"] if body.web_app_enabled is None else int(body.web_app_enabled)
        service_api = (
            row["service_api_enabled"] if body.service_api_enabled is None else int(body.service_api_enabled)
        )
        conn.execute(
            "UPDATE agents SET web_app_enabled = ?, service_api_enabled = ? WHERE id = ?",
            (web_app, service_api, agent_id),
        )
        return _access(_agent_row(conn, agent_id), True, origin)


def detach_dataset(conn: sqlite3.Connection, dataset_id: str) -> None:
    """Remove a deleted dataset from every draft that uses it (a draft change: revision + 1).
    Published versions are immutable and keep their reference."""
    now = utc_now()
    rows = conn.execute(
        "SELECT id, draft_config, draft_revision FROM agents WHERE draft_config LIKE ? ESCAPE '\\'",
        (like_pattern(dataset_id),),
    ).fetchall()
    for row in rows:
        config = AgentConfig.model_validate_json(row["draft_config"])
        if dataset_id not in config.knowledge.dataset_ids:
            continue
        config.knowledge.dataset_ids.remove(dataset_id)
        conn.execute(
            "UPDATE agents SET draft_config = ?, draft_revision = ?, draft_updated_at = ?, updated_at = ? "
            "WHERE id = ?",
            (_dump(config), row["draft_revision"] + 1, now, now, row["id"]),
        )


class ChatAgent(Protocol):
    """What a chat run needs of an agent: its published version, or (the preview) its draft."""

    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def version(self) -> int | None: ...  # None: the draft

    @property
    def config(self) -> AgentConfig: ...


@dataclass(frozen=True)
class DraftAgent:
    """The agent as its draft stands now: what the preview chats with, never the published version."""

    id: str
    name: str
    revision: int
    config: AgentConfig
    version: None = None


def find_draft(db: Database, agent_id: str) -> DraftAgent:
    """The agent's current draft; raises 404 for an unknown agent."""
    with db.read() as conn:
        row = _agent_row(conn, agent_id)
    config = AgentConfig.model_validate_json(row["draft_config"])
    return DraftAgent(id=row["id"], name=row["name"], revision=row["draft_revision"], config=config)


@dataclass(frozen=True)
class PublishedAgent:
    """What the public surfaces (web app, service API) may see: the latest published version."""

    id: str
    name: str
    description: str
    site_token: str
    web_app_enabled: bool
    service_api_enabled: bool
    version: int
    config: AgentConfig


def find_published(
    db: Database, *, agent_id: str | None = None, site_token: str | None = None
) -> PublishedAgent | None:
    """The agent with this id or site token, or None if it does not exist or was never published."""
    column, value = ("id", agent_id) if agent_id is not None else ("site_token", site_token)
    with db.read() as conn:
        row = conn.execute(f"SELECT * FROM agents WHERE {column} = ?", (value,)).fetchone()
        published = None if row is None else _latest_version(conn, row["id"])
    if row is None or published is None:
        return None
    return PublishedAgent(
        id=row["id"],
        name=row["name"],
        description=row["description"],
        site_token=row["site_token"],
        web_app_enabled=bool(row["web_app_enabled"]),
        service_api_enabled=bool(row["service_api_enabled"]),
        version=published.version,
        config=published.config,
    )
