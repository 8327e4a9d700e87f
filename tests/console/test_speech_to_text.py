"""Voice input: the console's speech-to-text model setting and transcription (its limits, its
errors, the provider call it makes), for the preview and for a web app."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from api_shortcuts import (
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    CHAT_MODEL,
    PROVIDER_KEY,
    assert_error,
    create_agent,
    save_config,
    sign_in,
)
from fastapi.testclient import TestClient

from agent_builder.console.app import create_app
from agent_builder.console.config import ConsoleConfig
from agent_builder.console.services import speech_to_text
from support.replay.server import BackgroundServer
from tests.console_api_setup import activate_model, publish_agent, signed_in, site_token
from tests.fakes.upstream import Answer, FakeUpstream, Raw, Status, Text

WAV = b"RIFF....WAVEfmt voice-bytes"
TRANSCRIBE = "/console/api/audio/transcriptions"


def add_provider(client: TestClient, fake_provider: FakeUpstream) -> dict[str, Any]:
    body = {"name": "Scripted", "base_url": fake_provider.base_url, "api_key": PROVIDER_KEY}
    provider = client.post("/console/api/model-providers", json=body)
    assert provider.status_code == 201 and provider.json()["status"] == "active", provider.text
    return provider.json()


def choose_speech_model(client: TestClient, provider: dict[str, Any], name: str = "whisper-1") -> None:
    body = {"decision_model": None, "speech_to_text_model": {"provider_id": provider["id"], "name": name}}
    response = client.put("/console/api/system-models", json=body)
    assert response.status_code == 200, response.text


def send(
    client: TestClient, path: str = TRANSCRIBE, content: bytes = WAV, media_type: str = "audio/wav"
) -> Any:
    return client.post(path, files={"file": ("voice.wav", content, media_type)})


@pytest.fixture
def speaking(client: TestClient, fake_provider: FakeUpstream) -> TestClient:
    choose_speech_model(client, add_provider(client, fake_provider))
    return client


def test_system_models_are_validated_and_kept(client: TestClient, fake_provider: FakeUpstream) -> None:
    assert client.get("/console/api/system-models").json() == {
        "decision_model": None,
        "speech_to_text_model": None,
    }
    provider = add_provider(client, fake_provider)
    inactive = {"decision_model": {"provider_id": provider["id"], "name": "gpt-4.1"}}
    assert_error(client.put("/console/api/system-models", json=inactive), 409, "invalid_model")
    nowhere = {"speech_to_text_model": {"provider_id": "nope", "name": "whisper-1"}}
    assert_error(client.put("/console/api/system-models", json=nowhere), 409, "invalid_model")
    choose_speech_model(client, provider)
    chosen = client.get("/console/api/system-models").json()
    assert chosen["speech_to_text_model"] == {"provider_id": provider["id"], "name": "whisper-1"}
    assert client.put("/console/api/system-models", json={}).status_code == 200
    assert client.get("/console/api/system-models").json()["speech_to_text_model"] is None


def test_a_recording_is_transcribed_by_the_speech_model(
    speaking: TestClient, fake_provider: FakeUpstream
) -> None:
    fake_provider.reply(Text("  What is the refund window?  "))
    response = send(speaking, media_type="audio/wav")
    assert response.status_code == 200, response.text
    assert response.json() == {"text": "What is the refund window?"}
    (call,) = fake_provider.calls("/v1/audio")
    assert call.path == "/v1/audio/transcriptions"
    assert call.headers["authorization"] == f"Bearer {PROVIDER_KEY}"
    assert call.headers["x-model-caller"] == "speech_to_text"
    assert call.body == {
        "fields": {"model": "whisper-1", "response_format": "json"},
        "file": ("recording.wav", "audio/wav", WAV),
    }


def test_refusals_before_the_provider_is_asked(
    make_client: Callable[..., TestClient], fake_provider: FakeUpstream
) -> None:
    client = make_client(max_audio_bytes=64)
    sign_in(client)
    assert_error(send(client), 409, "speech_to_text_not_configured")
    choose_speech_model(client, add_provider(client, fake_provider))
    assert_error(send(client, content=b"x" * 65), 413, "file_too_large")
    unsupported = assert_error(send(client, media_type="text/plain"), 415, "unsupported_audio_type")
    assert "text/plain" in unsupported["message"]
    assert_error(send(client, content=b""), 400, "empty_file")
    fake_provider.reply(Status(500))
    assert send(client, media_type="audio/webm;codecs=opus").status_code == 502  # reached the provider
    assert len(fake_provider.calls("/v1/audio")) == 1
    assert_error(send(TestClient(client.app)), 401, "unauthorized")


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        (Status(500, "overloaded"), "HTTP 500: overloaded"),
        (Status(401, f"Incorrect API key {PROVIDER_KEY}"), "HTTP 401: Incorrect API key ***"),
        (Raw(b'{"no": "text"}'), "answer has no text"),
    ],
)
def test_provider_failures_are_502_transcription_failed(
    speaking: TestClient, fake_provider: FakeUpstream, answer: Answer, expected: str
) -> None:
    fake_provider.reply(answer)
    failed = assert_error(send(speaking), 502, "transcription_failed")
    assert expected in failed["message"] and PROVIDER_KEY not in failed["message"]


def test_a_web_app_transcribes_while_it_is_on(
    speaking: TestClient, fake_provider: FakeUpstream, active_model: dict[str, Any]
) -> None:
    agent = create_agent(speaking, "Voice")
    model = {"provider_id": active_model["provider_id"], "name": active_model["name"]}
    save_config(speaking, agent, instructions="Be helpful.", model=model)
    speaking.post(f"/console/api/agents/{agent['id']}/publish").raise_for_status()
    access = speaking.get(f"/console/api/agents/{agent['id']}").json()["access"]
    path = f"/chat/{access['web_app_url'].rsplit('/', 1)[-1]}/api/audio/transcriptions"
    visitor = TestClient(speaking.app)
    fake_provider.reply(Text("Hello"))
    assert send(visitor, path).json() == {"text": "Hello"}
    speaking.patch(f"/console/api/agents/{agent['id']}/access", json={"web_app_enabled": False})
    assert_error(send(visitor, path), 403, "web_app_disabled")
    assert len(fake_provider.calls("/v1/audio")) == 1


STALL_S = 4.0  # how long the provider takes to answer each recording
UPLOADS = 45  # more than the worker threads a sync handler would hold (40)


def test_a_stalled_provider_slows_only_the_transcriptions_and_bounds_them(
    db_path: Path, fake_provider: FakeUpstream
) -> None:
    """While the provider stalls and 45 visitors' recordings wait on it, the routes that never call
    it answer as usual: a sync handler held a worker thread per upload, and `/healthz` and
    sign-in waited for the stall (issue 25). At most MAX_CONCURRENT_TRANSCRIPTIONS reach the
    provider, the rest are refused at once with 429 and `Retry-After`; the admin's preview is
    not counted. A real server on a socket, like a deployment: uvicorn's one event loop and its
    worker threads."""
    app = create_app(ConsoleConfig(db_path=db_path))
    with BackgroundServer(app) as server, signed_in(server.url, ADMIN_EMAIL, ADMIN_PASSWORD) as admin:
        model = activate_model(admin, "Scripted", fake_provider.base_url, CHAT_MODEL, PROVIDER_KEY)
        speech = {"speech_to_text_model": {"provider_id": model["provider_id"], "name": "whisper-1"}}
        admin.put("/console/api/system-models", json=speech).raise_for_status()
        web_app = f"/chat/{site_token(publish_agent(admin, model))}/api/audio/transcriptions"
        fake_provider.transcription_delay_s = STALL_S
        token = admin.headers["Authorization"]
        stalled = _while_the_provider_stalls(server.url, web_app, token, fake_provider)
        # On a thread of its own: a session's sync Playwright keeps an event loop running on this one.
        with ThreadPoolExecutor(max_workers=1) as worker:
            during = worker.submit(asyncio.run, stalled).result()

    assert during.healthz_s < STALL_S / 4 and during.sign_in_s < STALL_S / 4, (
        f"with {UPLOADS} recordings waiting on a provider that takes {STALL_S} s, /healthz took "
        f"{during.healthz_s:.2f} s and sign-in {during.sign_in_s:.2f} s"
    )
    statuses = Counter(response.status_code for response in during.uploads)
    bound = speech_to_text.MAX_CONCURRENT_TRANSCRIPTIONS
    assert statuses == {200: bound, 429: UPLOADS - bound}, statuses
    busy = next(response for response in during.uploads if response.status_code == 429)
    assert busy.headers["retry-after"] == str(speech_to_text.BUSY_RETRY_AFTER_S)
    assert busy.json()["code"] == "too_many_transcriptions" and busy.json()["message"]
    assert during.preview.status_code == 200, during.preview.text  # the admin is not counted
    assert len(fake_provider.calls("/v1/audio")) == bound + 1


@dataclass
class _During:
    healthz_s: float
    sign_in_s: float
    uploads: list[httpx.Response]
    preview: httpx.Response


async def _while_the_provider_stalls(
    url: str, web_app: str, admin_token: str, provider: FakeUpstream
) -> _During:
    async with httpx.AsyncClient(base_url=url, headers={"Origin": url}, timeout=60) as client:
        recording = {"file": ("voice.wav", WAV * 80, "audio/wav")}  # about 2 KB

        async def upload() -> httpx.Response:
            return await client.post(web_app, files=recording)

        uploads = [asyncio.create_task(upload()) for _ in range(UPLOADS)]
        # Every upload is in: waiting on the provider, or answered without it.
        deadline = time.monotonic() + 20
        while len(provider.calls("/v1/audio")) + sum(task.done() for task in uploads) < 40:
            assert time.monotonic() < deadline, f"{len(provider.calls('/v1/audio'))} reached the provider"
            await asyncio.sleep(0.02)
        preview = asyncio.create_task(
            client.post(TRANSCRIBE, files=recording, headers={"Authorization": admin_token})
        )
        started = time.perf_counter()
        (await client.get("/healthz")).raise_for_status()
        healthz_s = time.perf_counter() - started
        started = time.perf_counter()
        credentials = {"email": ADMIN_EMAIL, "password": ADMIN_PASSWORD}
        (await client.post("/console/api/login", json=credentials)).raise_for_status()
        sign_in_s = time.perf_counter() - started
        return _During(healthz_s, sign_in_s, list(await asyncio.gather(*uploads)), await preview)
