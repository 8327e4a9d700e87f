"""Voice input: a recording is transcribed by the console's speech-to-text model through the
provider's OpenAI-compatible `POST {base_url}/audio/transcriptions` (multipart `file`, `model`).
The text goes back to the page's composer; nothing is stored."""

from __future__ import annotations

import logging
from pathlib import PurePosixPath

import httpx

from agent_builder.console.db import Database
from agent_builder.console.errors import ApiError
from agent_builder.console.schemas.speech_to_text import Transcription
from agent_builder.console.services.providers import ModelEndpoint
from agent_builder.console.services.system_models import speech_to_text_endpoint
from agent_builder.provider_errors import provider_refusal

logger = logging.getLogger(__name__)

# Identifies this call site to the provider side (the suite's record/replay keys on it).
MODEL_CALLER = "speech_to_text"
TIMEOUT = httpx.Timeout(60.0, connect=10.0)
# What browsers record (MediaRecorder, or WAV from Web Audio) and providers accept, by media type.
AUDIO_TYPES = {
    "audio/wav": ".wav",
    "audio/x-wav": ".wav",
    "audio/wave": ".wav",
    "audio/webm": ".webm",
    "audio/ogg": ".ogg",
    "audio/mpeg": ".mp3",
    "audio/mp4": ".m4a",
    "audio/flac": ".flac",
}
AUDIO_EXTENSIONS = tuple(sorted(set(AUDIO_TYPES.values())))


def audio_type(content_type: str | None, name: str) -> str:
    """The upload's media type (parameters such as `codecs=opus` dropped), from its declared type,
    else its file name. Raises 415 for anything that is not a supported audio format."""
    declared = (content_type or "").split(";", 1)[0].strip().lower()
    if declared in AUDIO_TYPES:
        return declared
    suffix = PurePosixPath(name).suffix.lower()
    by_suffix = {extension: media for media, extension in reversed(AUDIO_TYPES.items())}
    if declared in ("", "application/octet-stream") and suffix in by_suffix:
        return by_suffix[suffix]
    kinds = ", ".join(sorted(set(AUDIO_TYPES.values())))
    raise ApiError(
        415, "unsupported_audio_type", f"Voice input accepts {kinds} audio, not {declared or name}."
    )


def transcribe(db: Database, audio: bytes, media_type: str) -> Transcription:
    """The recording's text. Raises 409 without a speech-to-text model, 400 for an empty
    recording, 502 `transcription_failed` when the provider fails or refuses."""
    if not audio:
        raise ApiError(400, "empty_file", "The recording is empty.")
    endpoint = speech_to_text_endpoint(db)
    response = _post(endpoint, audio, media_type)
    try:
        text = response.json()["text"]
    except (ValueError, KeyError, TypeError):
        text = None
    if not isinstance(text, str):
        raise _failed("the speech-to-text provider's answer has no text")
    return Transcription(text=text.strip())


def _post(endpoint: ModelEndpoint, audio: bytes, media_type: str) -> httpx.Response:
    headers = {"Authorization": f"Bearer {endpoint.api_key}", "X-Model-Caller": MODEL_CALLER}
    files = {"file": (f"recording{AUDIO_TYPES[media_type]}", audio, media_type)}
    data = {"model": endpoint.name, "response_format": "json"}
    try:
        response = httpx.post(
            f"{endpoint.base_url}/audio/transcriptions",
            headers=headers,
            files=files,
            data=data,
            timeout=TIMEOUT,
        )
    except httpx.HTTPError as exc:
        logger.warning("transcription: cannot reach the provider: %s", type(exc).__name__)
        raise _failed("the speech-to-text provider cannot be reached") from None
    if response.is_success:
        return response
    detail = provider_refusal(response, [endpoint.api_key])
    logger.warning("transcription: provider answered HTTP %s", response.status_code)
    raise _failed(f"the speech-to-text provider refused the audio (HTTP {response.status_code}: {detail})")


def _failed(reason: str) -> ApiError:
    return ApiError(502, "transcription_failed", f"Transcription failed: {reason}.")
