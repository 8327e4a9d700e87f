"""Restoring a published version into the draft."""

from __future__ import annotations

from pydantic import Field

from agent_builder.console.schemas.base import MAX_INT, RequestModel


class VersionRestore(RequestModel):
    # The draft revision the restore replaces: a stale one is refused (409), like a draft save.
    revision: int = Field(ge=0, le=MAX_INT)
