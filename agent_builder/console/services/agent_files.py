"""Files attached to an agent, stored in the database as BLOBs."""

from __future__ import annotations

from pathlib import PurePosixPath

from agent_builder.console.db import Database, new_id, to_model, utc_now
from agent_builder.console.errors import ApiError, not_found
from agent_builder.console.schemas.agent_files import AgentFile
from agent_builder.console.services.agents import check_agent

# The content type is derived from the extension: what the browser claims is not trusted.
CONTENT_TYPES = {
    ".txt": "text/plain",
    ".md": "text/markdown",
    ".csv": "text/csv",
    ".json": "application/json",
    ".pdf": "application/pdf",
}


def content_type_for(name: str) -> str:
    content_type = CONTENT_TYPES.get(PurePosixPath(name).suffix.lower())
    if content_type is None:
        raise ApiError(415, "unsupported_file_type", f"Allowed file types: {' '.join(CONTENT_TYPES)}.")
    return content_type


def ensure_agent(db: Database, agent_id: str) -> None:
    with db.read() as conn:
        check_agent(conn, agent_id)


def add_file(db: Database, agent_id: str, name: str, data: bytes, limit: int) -> AgentFile:
    """Store the file, unless the agent already holds `limit` files (counted inside the write, so
    two uploads at once cannot both take the last place)."""
    content_type = content_type_for(name)
    if not data:
        raise ApiError(400, "empty_file", "The file is empty.")
    file_id = new_id()
    with db.write() as conn:
        check_agent(conn, agent_id)
        held = conn.execute("SELECT COUNT(*) FROM agent_files WHERE agent_id = ?", (agent_id,)).fetchone()[0]
        if held >= limit:
            raise ApiError(
                409,
                "file_limit_reached",
                f"An agent can have at most {limit} files. Delete a file to upload another.",
            )
        conn.execute(
            "INSERT INTO agent_files (id, agent_id, name, size, content_type, content, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (file_id, agent_id, name, len(data), content_type, data, utc_now()),
        )
        return to_model(
            AgentFile, conn.execute("SELECT * FROM agent_files WHERE id = ?", (file_id,)).fetchone()
        )


def list_files(db: Database, agent_id: str) -> list[AgentFile]:
    with db.read() as conn:
        check_agent(conn, agent_id)
        rows = conn.execute(
            "SELECT id, name, size, content_type, created_at FROM agent_files WHERE agent_id = ? "
            "ORDER BY created_at, id",
            (agent_id,),
        ).fetchall()
    return [to_model(AgentFile, row) for row in rows]


def delete_file(db: Database, agent_id: str, file_id: str) -> None:
    with db.write() as conn:
        check_agent(conn, agent_id)
        if (
            conn.execute(
                "DELETE FROM agent_files WHERE id = ? AND agent_id = ?", (file_id, agent_id)
            ).rowcount
            == 0
        ):
            raise not_found("File")
