"""Voice input: the text a recording was transcribed to."""

from __future__ import annotations

from agent_builder.console.schemas.base import ResponseModel


class Transcription(ResponseModel):
    text: str
