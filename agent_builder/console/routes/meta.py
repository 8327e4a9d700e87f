"""Liveness. (The human-readable service API reference is a page: ui/pages.py.)"""

from __future__ import annotations

from fastapi import APIRouter

from agent_builder.console.schemas.meta import Health

router = APIRouter()


@router.get("/healthz", tags=["meta"])
def healthz() -> Health:
    return Health(status="ok")
