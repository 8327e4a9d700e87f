from __future__ import annotations

from fastapi import APIRouter, Depends

from agent_builder.console.auth import require_admin
from agent_builder.console.routes.common import DbDep, errors
from agent_builder.console.schemas.api_keys import ApiKeyCreate, ApiKeyCreated, ApiKeyList
from agent_builder.console.services import api_keys

router = APIRouter(
    prefix="/console/api/agents/{agent_id}/api-keys",
    tags=["access"],
    dependencies=[Depends(require_admin)],
    responses=errors(401, 404, 422),
)


_NO_BODY = ApiKeyCreate()  # the body is optional: without one the key gets the default name


@router.post("", status_code=201)
def create_api_key(agent_id: str, db: DbDep, body: ApiKeyCreate = _NO_BODY) -> ApiKeyCreated:
    return api_keys.create_key(db, agent_id, body.name)


@router.get("")
def list_api_keys(agent_id: str, db: DbDep) -> ApiKeyList:
    return ApiKeyList(data=api_keys.list_keys(db, agent_id))


@router.delete("/{key_id}", status_code=204)
def revoke_api_key(agent_id: str, key_id: str, db: DbDep) -> None:
    api_keys.revoke_key(db, agent_id, key_id)
