"""Voice input: transcribe a recording for the configure page's preview (signed in) and for a
published agent's web app (public, gated by its web app switch). Included with a body size
limit derived from the audio size limit.

Both handlers are async: waiting on the provider holds no worker thread, so a slow provider
cannot starve the routes that never call it (sign-in, the web app, `/healthz`). Web app
transcriptions share the console's TranscriptionSlots (429 when all are taken); the preview's,
signed in, are not counted, so visitors cannot take voice input away from the admin."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, File, Request, UploadFile

from agent_builder.console.auth import require_admin
from agent_builder.console.public import load_web_app_agent
from agent_builder.console.routes.common import ConfigDep, DbDep, errors, receive_upload_async
from agent_builder.console.schemas.speech_to_text import Transcription
from agent_builder.console.services import agents, speech_to_text

CONSOLE_PATH = "/console/api/audio/transcriptions"
WEB_APP_PATH = "/chat/{site_token}/api/audio/transcriptions"
_RESPONSES = errors(400, 409, 413, 415, 422, 502)
_WEB_APP_RESPONSES = errors(400, 409, 413, 415, 422, 429, 502)
_AUDIO = File(description="The recording: WAV, WebM, Ogg, MP3, MP4 or FLAC audio")

console_router = APIRouter(
    tags=["speech-to-text"], dependencies=[Depends(require_admin)], responses=errors(401)
)
web_app_router = APIRouter(tags=["web-app"], responses=errors(403, 404))


async def _slots(request: Request) -> speech_to_text.TranscriptionSlots:
    slots: speech_to_text.TranscriptionSlots = request.app.state.transcription_slots
    return slots


async def _transcribe(
    upload: UploadFile, db: DbDep, config: ConfigDep, slots: speech_to_text.TranscriptionSlots | None
) -> Transcription:
    def media_type(name: str) -> str:
        return speech_to_text.audio_type(upload.content_type, name)

    name, audio = await receive_upload_async(upload, config.max_audio_bytes, media_type)
    return await speech_to_text.transcribe(db, audio, media_type(name), slots)


@console_router.post(CONSOLE_PATH, responses=_RESPONSES)
async def transcribe_audio(
    file: Annotated[UploadFile, _AUDIO], db: DbDep, config: ConfigDep
) -> Transcription:
    """The recording's text, through the console's speech-to-text model. 409
    `speech_to_text_not_configured`, 413 `file_too_large`, 415 `unsupported_audio_type`, 502
    `transcription_failed` (the provider failed, refused or did not answer in time)."""
    return await _transcribe(file, db, config, None)


@web_app_router.post(WEB_APP_PATH, responses=_WEB_APP_RESPONSES)
async def transcribe_web_app_audio(
    file: Annotated[UploadFile, _AUDIO],
    agent: Annotated[agents.PublishedAgent, Depends(load_web_app_agent)],
    db: DbDep,
    config: ConfigDep,
    slots: Annotated[speech_to_text.TranscriptionSlots, Depends(_slots)],
) -> Transcription:
    """Voice input of a web app: as `transcribe_audio`, while the web app is on. 429
    `too_many_transcriptions` (with `Retry-After`) while 8 recordings of the console's web apps
    are already waiting on the provider."""
    return await _transcribe(file, db, config, slots)
