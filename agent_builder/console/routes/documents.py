"""Knowledge documents. Included with a body size limit derived from the document size limit."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, File, UploadFile

from agent_builder.console.auth import require_admin
from agent_builder.console.routes.common import ConfigDep, DbDep, IndexerDep, errors, receive_upload
from agent_builder.console.schemas.knowledge import Document, DocumentList, SegmentList
from agent_builder.console.services import knowledge

router = APIRouter(
    prefix="/console/api/datasets/{dataset_id}/documents",
    tags=["knowledge"],
    dependencies=[Depends(require_admin)],
    responses=errors(401, 404, 422),
)


@router.post("", status_code=201, responses=errors(400, 413, 415))
def upload_document(
    dataset_id: str,
    file: Annotated[UploadFile, File(description="A UTF-8 .txt or .md document")],
    db: DbDep,
    config: ConfigDep,
    indexer: IndexerDep,
) -> Document:
    knowledge.get_dataset(db, dataset_id)
    name, data = receive_upload(file, config.max_document_bytes, knowledge.check_document_type)
    document = knowledge.add_document(db, dataset_id, name, data)
    indexer.notify()
    return document


@router.get("")
def list_documents(dataset_id: str, db: DbDep) -> DocumentList:
    return DocumentList(data=knowledge.list_documents(db, dataset_id))


@router.get("/{document_id}")
def get_document(dataset_id: str, document_id: str, db: DbDep) -> Document:
    return knowledge.get_document(db, dataset_id, document_id)


@router.delete("/{document_id}", status_code=204)
def delete_document(dataset_id: str, document_id: str, db: DbDep) -> None:
    knowledge.delete_document(db, dataset_id, document_id)


@router.get("/{document_id}/segments")
def list_segments(dataset_id: str, document_id: str, db: DbDep) -> SegmentList:
    return SegmentList(data=knowledge.list_segments(db, dataset_id, document_id))
