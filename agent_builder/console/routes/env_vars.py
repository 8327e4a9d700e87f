"""An agent's environment variables. Secret values are write-only: never in any response."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, File, UploadFile
from fastapi import Path as PathParam
from starlette.convertors import Convertor, register_url_convertor

from agent_builder.console.auth import require_admin
from agent_builder.console.routes.common import DbDep, errors, receive_upload
from agent_builder.console.schemas.env_vars import (
    MAX_NAME_CHARS,
    NAME_PATTERN,
    EnvImportResult,
    EnvVar,
    EnvVarCreate,
    EnvVarList,
    EnvVarUpdate,
)
from agent_builder.console.services import env_vars

router = APIRouter(
    prefix="/console/api/agents/{agent_id}/env-vars",
    tags=["env-vars"],
    dependencies=[Depends(require_admin)],
    responses=errors(401, 404, 422),
)


class _NameConvertor(Convertor[str]):
    """Only a valid variable name matches `{name:env_var}`, so `/env-vars/import` is the import
    route alone (PATCH there is a 405 naming POST, not a lookup of a variable called import)."""

    regex = NAME_PATTERN.pattern

    def convert(self, value: str) -> str:
        return value

    def to_string(self, value: str) -> str:
        return value


register_url_convertor("env_var", _NameConvertor())
VariableName = Annotated[str, PathParam(pattern=f"^{NAME_PATTERN.pattern}$", max_length=MAX_NAME_CHARS)]


@router.get("")
def list_env_vars(agent_id: str, db: DbDep) -> EnvVarList:
    return EnvVarList(data=env_vars.list_env_vars(db, agent_id))


@router.post("", status_code=201, responses=errors(409))
def create_env_var(agent_id: str, body: EnvVarCreate, db: DbDep) -> EnvVar:
    """Add a variable. 409 `env_var_exists`, `too_many_env_vars`; 422 `secret_in_instructions`
    for a secret one that the draft's or the published version's instructions use."""
    return env_vars.create_env_var(db, agent_id, body)


@router.post("/import", responses=errors(400, 409, 413, 415))
def import_env_file(
    agent_id: str, file: Annotated[UploadFile, File(description="A .env text file")], db: DbDep
) -> EnvImportResult:
    """Valid lines are added or updated; refused lines are reported by number and skipped. A file
    that is not UTF-8 text is refused whole (415 `not_text`) and nothing is saved."""
    _, data = receive_upload(file, env_vars.MAX_ENV_FILE_BYTES, lambda _name: None)
    return env_vars.import_env_file(db, agent_id, data)


@router.patch("/{name:env_var}")
def update_env_var(agent_id: str, name: VariableName, body: EnvVarUpdate, db: DbDep) -> EnvVar:
    """Change a variable's value or secrecy. 422 `value_required` to make a secret plain without a
    new value; 422 `secret_in_instructions` to make one secret that the draft's or the published
    version's instructions use."""
    return env_vars.update_env_var(db, agent_id, name, body)


@router.delete("/{name:env_var}", status_code=204)
def delete_env_var(agent_id: str, name: VariableName, db: DbDep) -> None:
    env_vars.delete_env_var(db, agent_id, name)
