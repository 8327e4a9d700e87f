"""Knowledge datasets, their documents and segments, and retrieval."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from agent_builder.agent_parameters import ScoreThreshold
from agent_builder.console.schemas.base import Description, Name, RequestModel, ResourceId, ResponseModel

IndexingStatus = Literal["waiting", "indexing", "completed", "error"]


class DatasetCreate(RequestModel):
    name: Name
    description: Description = ""


class DatasetUpdate(RequestModel):
    name: Name | None = None
    description: Description | None = None


class Dataset(ResponseModel):
    id: str
    name: str
    description: str
    document_count: int
    created_at: datetime


class DatasetList(ResponseModel):
    data: list[Dataset]


class Document(ResponseModel):
    id: str
    dataset_id: str
    name: str
    size: int
    indexing_status: IndexingStatus
    error: str | None
    segment_count: int
    created_at: datetime


class DocumentList(ResponseModel):
    data: list[Document]


class Segment(ResponseModel):
    id: str
    document_id: str
    position: int
    content: str
    enabled: bool


class SegmentList(ResponseModel):
    data: list[Segment]


class SegmentUpdate(RequestModel):
    enabled: bool


class RetrieveRequest(RequestModel):
    query: Annotated[str, StringConstraints(min_length=1, max_length=2000)]
    top_k: int = Field(default=3, ge=1, le=20)
    score_threshold: ScoreThreshold | None = None


class RetrievalRecord(ResponseModel):
    """A matching passage, with where it comes from (what a chat reply cites)."""

    segment_id: str
    document_id: str
    document_name: str
    dataset_id: str
    dataset_name: str
    content: str
    score: float


class RetrieveResponse(ResponseModel):
    records: list[RetrievalRecord]


class InternalRetrieveRequest(RetrieveRequest):
    """The runtime's knowledge_search call (internal): the run's datasets and settings."""

    dataset_ids: Annotated[list[ResourceId], Field(max_length=50)]
