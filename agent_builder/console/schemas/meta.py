"""Liveness."""

from __future__ import annotations

from typing import Literal

from agent_builder.console.schemas.base import ResponseModel


class Health(ResponseModel):
    status: Literal["ok"]
