"""Agent files. Included with a body size limit derived from the agent file size limit."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, File, UploadFile

from agent_builder.console.auth import require_admin
from agent_builder.console.routes.common import ConfigDep, DbDep, errors, receive_upload
from agent_builder.console.schemas.agent_files import AgentFile, AgentFileList
from agent_builder.console.services import agent_files

router = APIRouter(
    prefix="/console/api/agents/{agent_id}/files",
    tags=["agent-files"],
    dependencies=[Depends(require_admin)],
    responses=errors(401, 404, 422),
)


@router.post("", status_code=201, responses=errors(400, 409, 413, 415))
def upload_agent_file(
    agent_id: str,
    file: Annotated[UploadFile, File(description="A .txt, .md, .csv, .json or .pdf file")],
    db: DbDep,
    config: ConfigDep,
) -> AgentFile:
    agent_files.ensure_agent(db, agent_id)
    name, data = receive_upload(file, config.max_agent_file_bytes, agent_files.content_type_for)
    return agent_files.add_file(db, agent_id, name, data, config.max_agent_files)


@router.get("")
def list_agent_files(agent_id: str, db: DbDep, config: ConfigDep) -> AgentFileList:
    return AgentFileList(data=agent_files.list_files(db, agent_id), limit=config.max_agent_files)


@router.delete("/{file_id}", status_code=204)
def delete_agent_file(agent_id: str, file_id: str, db: DbDep) -> None:
    agent_files.delete_file(db, agent_id, file_id)
