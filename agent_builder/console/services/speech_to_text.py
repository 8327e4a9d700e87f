"""Voice input: a recording is transcribed by the console's speech-to-text model through the
provider's OpenAI-compatible `POST {base_url}/audio/transcriptions` (multipart `file`, `model`).
The text goes back to the page's composer; nothing is stored.

The provider call is async I/O on the event loop, never a worker thread: a slow provider slows
only the transcriptions waiting on it. Web app visitors (anonymous) share `TranscriptionSlots`:
at most MAX_CONCURRENT_TRANSCRIPTIONS of their recordings wait on the provider at once, and one
more is refused at once with 429 rather than queued (a queue would only make every visitor wait
longer behind a provider that is not answering)."""

from __future__ import annotations

import asyncio
import functools
import logging
import ssl
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import PurePosixPath

import httpx
from starlette.concurrency import run_in_threadpool

from agent_builder.console.db import Database
from agent_builder.console.errors import ApiError
from agent_builder.console.schemas.speech_to_text import Transcription
from agent_builder.console.services.providers import ModelEndpoint
from agent_builder.console.services.system_models import speech_to_text_endpoint
from agent_builder.provider_errors import provider_refusal

logger = logging.getLogger(__name__)

# Identifies this call site to the provider side (the suite's record/replay keys on it).
MODEL_CALLER = "speech_to_text"
# The provider has 10 s to accept the connection and 60 s in all to answer (docs/console.md).
TIMEOUT_S = 60.0
TIMEOUT = httpx.Timeout(TIMEOUT_S, connect=10.0)
# Web app transcriptions waiting on the provider at once, per console; the next one is a 429
# telling the visitor to retry after BUSY_RETRY_AFTER_S seconds (docs/console.md, "Voice input").
MAX_CONCURRENT_TRANSCRIPTIONS = 8
BUSY_RETRY_AFTER_S = 5
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


class TranscriptionSlots:
    """How many transcriptions may wait on the provider at once (one console's web apps share
    them). Never waited for: with every slot taken, `hold` refuses at once."""

    def __init__(self, limit: int = MAX_CONCURRENT_TRANSCRIPTIONS) -> None:
        self._semaphore = asyncio.Semaphore(limit)

    @asynccontextmanager
    async def hold(self) -> AsyncIterator[None]:
        """One slot while the block runs; 429 `too_many_transcriptions` when none is free."""
        if self._semaphore.locked():
            raise ApiError(
                429,
                "too_many_transcriptions",
                "Too many recordings are being transcribed right now. "
                f"Try again in {BUSY_RETRY_AFTER_S} seconds.",
                headers={"Retry-After": str(BUSY_RETRY_AFTER_S)},
                retry_after=BUSY_RETRY_AFTER_S,
            )
        async with self._semaphore:  # free, so this does not wait
            yield


async def transcribe(
    db: Database, audio: bytes, media_type: str, slots: TranscriptionSlots | None = None
) -> Transcription:
    """The recording's text. Raises 409 without a speech-to-text model, 400 for an empty
    recording, 429 when `slots` (if given) are all taken, 502 `transcription_failed` when the
    provider fails, refuses or does not answer in time."""
    if not audio:
        raise ApiError(400, "empty_file", "The recording is empty.")
    endpoint = await run_in_threadpool(speech_to_text_endpoint, db)
    if slots is None:
        response = await _post(endpoint, audio, media_type)
    else:
        async with slots.hold():
            response = await _post(endpoint, audio, media_type)
    try:
        text = response.json()["text"]
    except (ValueError, KeyError, TypeError):
        text = None
    if not isinstance(text, str):
        raise _failed("the speech-to-text provider's answer has no text")
    return Transcription(text=text.strip())


@functools.cache
def _tls() -> ssl.SSLContext:
    # Built once: a client building its own spends about 20 ms of CPU on the event loop.
    return httpx.create_ssl_context()


async def _post(endpoint: ModelEndpoint, audio: bytes, media_type: str) -> httpx.Response:
    headers = {"Authorization": f"Bearer {endpoint.api_key}", "X-Model-Caller": MODEL_CALLER}
    files = {"file": (f"recording{AUDIO_TYPES[media_type]}", audio, media_type)}
    data = {"model": endpoint.name, "response_format": "json"}
    try:
        # httpx bounds each read; the deadline bounds a provider that trickles its answer too.
        async with asyncio.timeout(TIMEOUT_S), httpx.AsyncClient(timeout=TIMEOUT, verify=_tls()) as client:
            response = await client.post(
                f"{endpoint.base_url}/audio/transcriptions", headers=headers, files=files, data=data
            )
    except (httpx.TimeoutException, TimeoutError):
        logger.warning("transcription: the provider did not answer in time")
        raise _failed(f"the speech-to-text provider did not answer within {TIMEOUT_S:.0f} s") from None
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
