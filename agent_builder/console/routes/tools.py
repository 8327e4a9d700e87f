from __future__ import annotations

from fastapi import APIRouter, Depends

from agent_builder.console.auth import require_admin
from agent_builder.console.routes.common import DbDep, errors
from agent_builder.console.schemas.tools import (
    ToolCredential,
    ToolCredentialCreate,
    ToolCredentialList,
    ToolList,
)
from agent_builder.console.services import tool_checks, tools

router = APIRouter(
    prefix="/console/api", tags=["tools"], dependencies=[Depends(require_admin)], responses=errors(401, 422)
)


@router.get("/tools")
def list_tools(db: DbDep) -> ToolList:
    return ToolList(data=tools.list_tools(db))


@router.get("/tool-credentials")
def list_tool_credentials(db: DbDep) -> ToolCredentialList:
    return ToolCredentialList(data=tools.list_credentials(db))


@router.post("/tool-credentials", status_code=201, responses=errors(400, 404))
def create_tool_credential(body: ToolCredentialCreate, db: DbDep) -> ToolCredential:
    return tools.create_credential(db, body)


@router.delete("/tool-credentials/{credential_id}", status_code=204, responses=errors(404))
def delete_tool_credential(credential_id: str, db: DbDep) -> None:
    tools.delete_credential(db, credential_id)


@router.post("/tool-credentials/{credential_id}/check", responses=errors(400, 404))
def check_tool_credential(credential_id: str, db: DbDep) -> ToolCredential:
    """Check the credential against its provider now; the outcome is kept on it (check_status)."""
    return tool_checks.check_credential(db, credential_id)
