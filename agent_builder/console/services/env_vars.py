"""An agent's environment variables: add, edit, delete, import a `.env` file, and what a run gets.

Variables belong to the agent, not to its draft or versions (like its files): a change applies
to the next run of the published agent too. Every value is stored sealed (crypto.py), secret or
not: one rule, and the column is in crypto.SECRET_COLUMNS so key rotation covers it.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from agent_builder.console.crypto import seal, unseal
from agent_builder.console.db import Database, to_model, utc_now
from agent_builder.console.errors import ApiError, not_found
from agent_builder.console.schemas.env_vars import (
    MAX_VARIABLES,
    DuplicateName,
    EnvImportResult,
    EnvVar,
    EnvVarCreate,
    EnvVarUpdate,
    SkippedLine,
)
from agent_builder.console.services import env_references
from agent_builder.console.services.agents import check_agent
from agent_builder.console.services.env_file import parse_env_file
from agent_builder.console.services.masking import mask_secret

MAX_ENV_FILE_BYTES = 64 << 10


def _env_var(db: Database, row: sqlite3.Row) -> EnvVar:
    value = unseal(db, row["value"])
    if row["secret"]:
        return to_model(EnvVar, row, secret=True, value=None, masked=mask_secret(value))
    return to_model(EnvVar, row, secret=False, value=value, masked=None)


def _row(conn: sqlite3.Connection, agent_id: str, name: str) -> sqlite3.Row:
    row: sqlite3.Row | None = conn.execute(
        "SELECT * FROM agent_env_vars WHERE agent_id = ? AND name = ?", (agent_id, name)
    ).fetchone()
    if row is None:
        raise not_found(f"Variable {name}")
    return row


def _check_room(conn: sqlite3.Connection, agent_id: str, adding: int) -> None:
    count = conn.execute("SELECT COUNT(*) FROM agent_env_vars WHERE agent_id = ?", (agent_id,)).fetchone()[0]
    if count + adding > MAX_VARIABLES:
        raise ApiError(
            409, "too_many_env_vars", f"An agent has at most {MAX_VARIABLES} variables; delete some first."
        )


def list_env_vars(db: Database, agent_id: str) -> list[EnvVar]:
    with db.read() as conn:
        check_agent(conn, agent_id)
        rows = conn.execute("SELECT * FROM agent_env_vars WHERE agent_id = ? ORDER BY name", (agent_id,))
        return [_env_var(db, row) for row in rows.fetchall()]


def create_env_var(db: Database, agent_id: str, body: EnvVarCreate) -> EnvVar:
    now = utc_now()
    with db.write() as conn:
        check_agent(conn, agent_id)
        exists = conn.execute(
            "SELECT 1 FROM agent_env_vars WHERE agent_id = ? AND name = ?", (agent_id, body.name)
        ).fetchone()
        if exists:
            raise ApiError(
                409, "env_var_exists", f"A variable named {body.name} already exists: edit it instead."
            )
        _check_room(conn, agent_id, 1)
        if body.secret:
            env_references.check_may_be_secret(conn, agent_id, body.name)
        conn.execute(
            "INSERT INTO agent_env_vars (agent_id, name, value, secret, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (agent_id, body.name, seal(db, body.value), int(body.secret), now, now),
        )
        return _env_var(db, _row(conn, agent_id, body.name))


def update_env_var(db: Database, agent_id: str, name: str, body: EnvVarUpdate) -> EnvVar:
    with db.write() as conn:
        check_agent(conn, agent_id)
        row = _row(conn, agent_id, name)
        secret = bool(row["secret"]) if body.secret is None else body.secret
        if row["secret"] and not secret and body.value is None:
            # Turning a secret into a plain variable would show a value nobody may read.
            message = "Enter a new value to make a secret variable a plain one."
            # A 422 is documented as a validation error: it names the field at fault.
            raise ApiError(422, "value_required", message, errors=[{"field": "value", "message": message}])
        if secret and not row["secret"]:
            env_references.check_may_be_secret(conn, agent_id, name)
        value = row["value"] if body.value is None else seal(db, body.value)
        conn.execute(
            "UPDATE agent_env_vars SET value = ?, secret = ?, updated_at = ? WHERE agent_id = ? AND name = ?",
            (value, int(secret), utc_now(), agent_id, name),
        )
        return _env_var(db, _row(conn, agent_id, name))


def delete_env_var(db: Database, agent_id: str, name: str) -> None:
    with db.write() as conn:
        check_agent(conn, agent_id)
        deleted = conn.execute("DELETE FROM agent_env_vars WHERE agent_id = ? AND name = ?", (agent_id, name))
        if deleted.rowcount == 0:
            raise not_found(f"Variable {name}")


def _decoded(data: bytes) -> str:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = None
    if text is None or "\x00" in text:
        raise ApiError(415, "not_text", "The file is not a UTF-8 text file: nothing was imported.")
    return text


def import_env_file(db: Database, agent_id: str, data: bytes) -> EnvImportResult:
    """Adds the file's new names and updates existing ones (a secret stays secret); all or nothing."""
    parsed = parse_env_file(_decoded(data))
    now = utc_now()
    added: list[str] = []
    updated: list[str] = []
    with db.write() as conn:
        check_agent(conn, agent_id)
        existing = {
            row["name"]
            for row in conn.execute("SELECT name FROM agent_env_vars WHERE agent_id = ?", (agent_id,))
        }
        for name in parsed.values:
            (updated if name in existing else added).append(name)
        _check_room(conn, agent_id, len(added))
        conn.executemany(
            "INSERT INTO agent_env_vars (agent_id, name, value, secret, created_at, updated_at) "
            "VALUES (?, ?, ?, 0, ?, ?) ON CONFLICT (agent_id, name) "
            "DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
            [(agent_id, name, seal(db, value), now, now) for name, value in parsed.values.items()],
        )
    return EnvImportResult(
        added=added,
        updated=updated,
        skipped=[SkippedLine(line=line, reason=reason) for line, reason in parsed.skipped],
        duplicates=[DuplicateName(name=name, lines=lines) for name, lines in parsed.duplicates.items()],
    )


def copy_env_vars(conn: sqlite3.Connection, source_id: str, target_id: str) -> None:
    """Duplicating an agent copies its variables, secret ones included (stored values as they are)."""
    conn.execute(
        "INSERT INTO agent_env_vars (agent_id, name, value, secret, created_at, updated_at) "
        "SELECT ?, name, value, secret, ?, ? FROM agent_env_vars WHERE agent_id = ?",
        (target_id, utc_now(), utc_now(), source_id),
    )


@dataclass(frozen=True)
class RunVariables:
    """What a run gets: `plain` for `{{env.NAME}}` in the instructions and the sandbox commands'
    environment, `secret` for that environment alone (the runtime hides their values in every
    tool output)."""

    plain: dict[str, str]
    secret: dict[str, str]


def run_variables(db: Database, agent_id: str) -> RunVariables:
    """The agent's variables for a run. Secret ones are never substituted into the instructions,
    even ones saved before secrets were refused there (env_references.py): such a reference
    reaches the model as written, `{{env.NAME}}`."""
    with db.read() as conn:
        rows = conn.execute(
            "SELECT name, value, secret FROM agent_env_vars WHERE agent_id = ? ORDER BY name", (agent_id,)
        ).fetchall()
    values = {row["name"]: unseal(db, row["value"]) for row in rows}
    return RunVariables(
        plain={row["name"]: values[row["name"]] for row in rows if not row["secret"]},
        secret={row["name"]: values[row["name"]] for row in rows if row["secret"]},
    )


def substitute(text: str, values: dict[str, str]) -> str:
    """`{{env.NAME}}` (spaces inside the braces allowed) becomes NAME's value; a reference to an
    unknown name (or to a secret one, which `values` never holds) stays as written, so the author
    can see it was not replaced."""
    return env_references.REFERENCE.sub(lambda match: values.get(match[1], match[0]), text)
