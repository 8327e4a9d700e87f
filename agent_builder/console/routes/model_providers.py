from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query

from agent_builder.console.auth import require_admin
from agent_builder.console.routes.common import DbDep, errors
from agent_builder.console.schemas.model_providers import (
    Model,
    ModelList,
    ModelUpdate,
    Provider,
    ProviderCreate,
    ProviderList,
    ProviderUpdate,
)
from agent_builder.console.services import providers

router = APIRouter(
    prefix="/console/api",
    tags=["model-providers"],
    dependencies=[Depends(require_admin)],
    responses=errors(401, 422),
)


@router.get("/model-providers")
def list_model_providers(db: DbDep) -> ProviderList:
    return ProviderList(data=providers.list_providers(db))


@router.post("/model-providers", status_code=201, responses=errors(409))
def create_model_provider(body: ProviderCreate, db: DbDep) -> Provider:
    return providers.create_provider(db, body)


@router.get("/model-providers/{provider_id}", responses=errors(404))
def get_model_provider(provider_id: str, db: DbDep) -> Provider:
    return providers.get_provider(db, provider_id)


@router.patch("/model-providers/{provider_id}", responses=errors(404, 409))
def update_model_provider(provider_id: str, body: ProviderUpdate, db: DbDep) -> Provider:
    return providers.update_provider(db, provider_id, body)


@router.delete("/model-providers/{provider_id}", status_code=204, responses=errors(404))
def delete_model_provider(provider_id: str, db: DbDep) -> None:
    providers.delete_provider(db, provider_id)


@router.post("/model-providers/{provider_id}/validate", responses=errors(404))
def validate_model_provider(provider_id: str, db: DbDep) -> Provider:
    return providers.revalidate_provider(db, provider_id)


@router.patch("/model-providers/{provider_id}/models/{model_id}", responses=errors(404))
def update_model(provider_id: str, model_id: str, body: ModelUpdate, db: DbDep) -> Model:
    return providers.set_model_active(db, provider_id, model_id, body.active)


@router.get("/models")
def list_models(db: DbDep, active: Annotated[bool | None, Query()] = None) -> ModelList:
    return ModelList(data=providers.list_models(db, active))
