from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query

from agent_builder.console.auth import require_admin
from agent_builder.console.routes.common import DbDep, errors
from agent_builder.console.schemas.knowledge import (
    Dataset,
    DatasetCreate,
    DatasetList,
    DatasetUpdate,
    RetrieveRequest,
    RetrieveResponse,
    Segment,
    SegmentUpdate,
)
from agent_builder.console.services import knowledge

router = APIRouter(
    prefix="/console/api",
    tags=["knowledge"],
    dependencies=[Depends(require_admin)],
    responses=errors(401, 422),
)


@router.get("/datasets")
def list_datasets(db: DbDep, search: Annotated[str | None, Query(max_length=200)] = None) -> DatasetList:
    return DatasetList(data=knowledge.list_datasets(db, search))


@router.post("/datasets", status_code=201)
def create_dataset(body: DatasetCreate, db: DbDep) -> Dataset:
    return knowledge.create_dataset(db, body)


@router.get("/datasets/{dataset_id}", responses=errors(404))
def get_dataset(dataset_id: str, db: DbDep) -> Dataset:
    return knowledge.get_dataset(db, dataset_id)


@router.patch("/datasets/{dataset_id}", responses=errors(404))
def update_dataset(dataset_id: str, body: DatasetUpdate, db: DbDep) -> Dataset:
    return knowledge.update_dataset(db, dataset_id, body)


@router.delete("/datasets/{dataset_id}", status_code=204, responses=errors(404))
def delete_dataset(dataset_id: str, db: DbDep) -> None:
    knowledge.delete_dataset(db, dataset_id)


@router.patch("/datasets/{dataset_id}/segments/{segment_id}", responses=errors(404))
def update_segment(dataset_id: str, segment_id: str, body: SegmentUpdate, db: DbDep) -> Segment:
    return knowledge.set_segment_enabled(db, dataset_id, segment_id, body.enabled)


@router.post("/datasets/{dataset_id}/retrieve", responses=errors(404))
def retrieve(dataset_id: str, body: RetrieveRequest, db: DbDep) -> RetrieveResponse:
    records = knowledge.retrieve(db, dataset_id, body.query, body.top_k, body.score_threshold)
    return RetrieveResponse(records=records)
