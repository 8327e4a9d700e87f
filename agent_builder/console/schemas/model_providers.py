"""Model providers and their chat models."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from agent_builder.console.schemas.base import HttpUrl, Name, RequestModel, ResponseModel, Secret


class ProviderCreate(RequestModel):
    name: Name
    base_url: HttpUrl
    api_key: Secret


class ProviderUpdate(RequestModel):
    name: Name | None = None
    base_url: HttpUrl | None = None
    api_key: Secret | None = None


class Model(ResponseModel):
    id: str
    provider_id: str
    provider_name: str
    name: str
    active: bool


class ModelList(ResponseModel):
    data: list[Model]


class ModelUpdate(RequestModel):
    active: bool


class Provider(ResponseModel):
    id: str
    name: str
    base_url: str
    api_key_masked: str
    status: Literal["active", "invalid"]
    error: str | None
    validated_at: datetime | None
    models: list[Model]


class ProviderList(ResponseModel):
    data: list[Provider]
