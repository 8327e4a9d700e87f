"""The console's own model choices: the build assistant's decision model, speech to text."""

from __future__ import annotations

from fastapi import APIRouter, Depends

from agent_builder.console.auth import require_admin
from agent_builder.console.routes.common import DbDep, errors
from agent_builder.console.schemas.system_models import SystemModels
from agent_builder.console.services import system_models

router = APIRouter(
    prefix="/console/api/system-models",
    tags=["system-models"],
    dependencies=[Depends(require_admin)],
    responses=errors(401, 422),
)


@router.get("")
def get_system_models(db: DbDep) -> SystemModels:
    return system_models.get_system_models(db)


@router.put("", responses=errors(409))
def set_system_models(body: SystemModels, db: DbDep) -> SystemModels:
    """Choose both models at once (null turns its feature off). 409 `invalid_model` when the
    decision model is not an active chat model or the speech-to-text provider does not exist (the
    console's state, not the request's shape, decides)."""
    return system_models.set_system_models(db, body)
