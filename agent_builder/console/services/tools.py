"""The builtin tool catalog and the credentials some tools need."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from agent_builder.console.crypto import seal, unseal
from agent_builder.console.db import Database, new_id, to_model, utc_now
from agent_builder.console.errors import ApiError, not_found
from agent_builder.console.schemas.tools import (
    CredentialState,
    Tool,
    ToolCredential,
    ToolCredentialCreate,
    ToolName,
)
from agent_builder.console.services.masking import mask_secret
from agent_builder.redaction import mask_url


@dataclass(frozen=True)
class BuiltinTool:
    name: ToolName
    label: str
    description: str
    requires_credential: bool = False


BUILTIN_TOOLS: tuple[BuiltinTool, ...] = (
    BuiltinTool("json_replace", "JSON replace", "Replace the value at a path inside a JSON document."),
    BuiltinTool(
        "sandbox_shell", "Sandbox shell", "Run shell commands in an isolated, per-conversation workspace."
    ),
    BuiltinTool("knowledge_search", "Knowledge search", "Search the agent's knowledge datasets by keyword."),
    BuiltinTool(
        "web_search",
        "Web search",
        "Search the web through a configured search provider.",
        requires_credential=True,
    ),
)
# Keyed by str: a credential body names its tool as free text, and an unknown one is a 404, not a 422.
_BY_NAME: dict[str, BuiltinTool] = {tool.name: tool for tool in BUILTIN_TOOLS}


def list_tools(db: Database) -> list[Tool]:
    with db.read() as conn:
        rows = conn.execute("SELECT tool, check_status FROM tool_credentials").fetchall()
    configured = {row["tool"] for row in rows}
    usable = {row["tool"] for row in rows if row["check_status"] != "invalid"}
    return [
        Tool(
            name=tool.name,
            label=tool.label,
            description=tool.description,
            requires_credential=tool.requires_credential,
            credential_configured=tool.name in configured,
            credential_state=_credential_state(tool, configured, usable),
        )
        for tool in BUILTIN_TOOLS
    ]


def _credential_state(tool: BuiltinTool, configured: set[str], usable: set[str]) -> CredentialState:
    if not tool.requires_credential:
        return "not_required"
    if tool.name not in configured:
        return "missing"
    return "configured" if tool.name in usable else "invalid"


def credential(db: Database, row: sqlite3.Row) -> ToolCredential:
    base_url = row["base_url"]
    return to_model(
        ToolCredential,
        row,
        base_url=None if base_url is None else mask_url(base_url),
        secret_masked=mask_secret(unseal(db, row["secret"])),
        check_status=row["check_status"] or "unchecked",
    )


def list_credentials(db: Database) -> list[ToolCredential]:
    with db.read() as conn:
        rows = conn.execute("SELECT * FROM tool_credentials ORDER BY created_at, id").fetchall()
    return [credential(db, row) for row in rows]


def create_credential(db: Database, body: ToolCredentialCreate) -> ToolCredential:
    tool = _BY_NAME.get(body.tool)
    if tool is None:
        raise not_found(f"Tool {body.tool!r}")
    if not tool.requires_credential:
        raise ApiError(400, "invalid_request", f"The {tool.name} tool does not use credentials.")
    credential_id = new_id()
    with db.write() as conn:
        conn.execute(
            "INSERT INTO tool_credentials (id, tool, name, base_url, secret, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (credential_id, tool.name, body.name, body.base_url, seal(db, body.secret), utc_now()),
        )
        return credential(
            db, conn.execute("SELECT * FROM tool_credentials WHERE id = ?", (credential_id,)).fetchone()
        )


def delete_credential(db: Database, credential_id: str) -> None:
    with db.write() as conn:
        if conn.execute("DELETE FROM tool_credentials WHERE id = ?", (credential_id,)).rowcount == 0:
            raise not_found("Tool credential")


@dataclass(frozen=True)
class WebSearchEndpoint:
    base_url: str
    secret: str


def web_search_endpoint(db: Database) -> WebSearchEndpoint | None:
    """The newest web_search credential that names its provider's URL and has not failed its last
    check, if any."""
    with db.read() as conn:
        row = conn.execute(
            "SELECT base_url, secret FROM tool_credentials WHERE tool = 'web_search' AND base_url IS NOT NULL "
            "AND check_status IS NOT 'invalid' "
            "ORDER BY created_at DESC, id DESC LIMIT 1"
        ).fetchone()
    return None if row is None else WebSearchEndpoint(row["base_url"], unseal(db, row["secret"]))
