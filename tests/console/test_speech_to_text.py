"""Voice input: the console's speech-to-text model setting and transcription (its limits, its
errors, the provider call it makes), for the preview and for a web app."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from console_testing import PROVIDER_KEY, assert_error, create_agent, save_config, sign_in
from fastapi.testclient import TestClient
from model_upstream import ModelUpstream, model_upstream

WAV = b"RIFF....WAVEfmt voice-bytes"
TRANSCRIBE = "/console/api/audio/transcriptions"


@pytest.fixture
def upstream() -> Iterator[ModelUpstream]:
    with model_upstream() as upstream:
        yield upstream


def add_provider(client: TestClient, upstream: ModelUpstream) -> dict[str, Any]:
    body = {"name": "Scripted", "base_url": upstream.url, "api_key": PROVIDER_KEY}
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
def speaking(client: TestClient, upstream: ModelUpstream) -> TestClient:
    choose_speech_model(client, add_provider(client, upstream))
    return client


def test_system_models_are_validated_and_kept(client: TestClient, upstream: ModelUpstream) -> None:
    assert client.get("/console/api/system-models").json() == {
        "decision_model": None,
        "speech_to_text_model": None,
    }
    provider = add_provider(client, upstream)
    inactive = {"decision_model": {"provider_id": provider["id"], "name": "gpt-4o"}}
    assert_error(client.put("/console/api/system-models", json=inactive), 409, "invalid_model")
    nowhere = {"speech_to_text_model": {"provider_id": "nope", "name": "whisper-1"}}
    assert_error(client.put("/console/api/system-models", json=nowhere), 409, "invalid_model")
    choose_speech_model(client, provider)
    chosen = client.get("/console/api/system-models").json()
    assert chosen["speech_to_text_model"] == {"provider_id": provider["id"], "name": "whisper-1"}
    assert client.put("/console/api/system-models", json={}).status_code == 200
    assert client.get("/console/api/system-models").json()["speech_to_text_model"] is None


def test_a_recording_is_transcribed_by_the_speech_model(
    speaking: TestClient, upstream: ModelUpstream
) -> None:
    upstream.answer({"text": "  What is the refund window?  "})
    response = send(speaking, media_type="audio/wav")
    assert response.status_code == 200, response.text
    assert response.json() == {"text": "What is the refund window?"}
    (call,) = upstream.seen
    assert call.path == "/v1/audio/transcriptions"
    assert call.headers["authorization"] == f"Bearer {PROVIDER_KEY}"
    assert call.headers["x-model-caller"] == "speech_to_text"
    assert call.body == {
        "fields": {"model": "whisper-1", "response_format": "json"},
        "file": ("recording.wav", "audio/wav", WAV),
    }


def test_refusals_before_the_provider_is_asked(
    make_client: Callable[..., TestClient], upstream: ModelUpstream
) -> None:
    client = make_client(max_audio_bytes=64)
    sign_in(client)
    assert_error(send(client), 409, "speech_to_text_not_configured")
    choose_speech_model(client, add_provider(client, upstream))
    assert_error(send(client, content=b"x" * 65), 413, "file_too_large")
    unsupported = assert_error(send(client, media_type="text/plain"), 415, "unsupported_audio_type")
    assert "text/plain" in unsupported["message"]
    assert_error(send(client, content=b""), 400, "empty_file")
    assert send(client, media_type="audio/webm;codecs=opus").status_code == 502  # reached the provider
    assert len(upstream.seen) == 1
    assert_error(send(TestClient(client.app)), 401, "unauthorized")


@pytest.mark.parametrize(
    ("status", "body", "expected"),
    [
        (500, {"error": {"message": "overloaded"}}, "HTTP 500: overloaded"),
        (401, {"error": {"message": f"Incorrect API key {PROVIDER_KEY}"}}, "HTTP 401: Incorrect API key ***"),
        (200, {"no": "text"}, "answer has no text"),
    ],
)
def test_provider_failures_are_502_transcription_failed(
    speaking: TestClient, upstream: ModelUpstream, status: int, body: Any, expected: str
) -> None:
    upstream.answer(body, status)
    failed = assert_error(send(speaking), 502, "transcription_failed")
    assert expected in failed["message"] and PROVIDER_KEY not in failed["message"]


def test_a_web_app_transcribes_while_it_is_on(
    speaking: TestClient, upstream: ModelUpstream, active_model: dict[str, Any]
) -> None:
    agent = create_agent(speaking, "Voice")
    model = {"provider_id": active_model["provider_id"], "name": active_model["name"]}
    save_config(speaking, agent, instructions="Be helpful.", model=model)
    speaking.post(f"/console/api/agents/{agent['id']}/publish").raise_for_status()
    access = speaking.get(f"/console/api/agents/{agent['id']}").json()["access"]
    path = f"/chat/{access['web_app_url'].rsplit('/', 1)[-1]}/api/audio/transcriptions"
    visitor = TestClient(speaking.app)
    upstream.answer({"text": "Hello"})
    assert send(visitor, path).json() == {"text": "Hello"}
    speaking.patch(f"/console/api/agents/{agent['id']}/access", json={"web_app_enabled": False})
    assert_error(send(visitor, path), 403, "web_app_disabled")
    assert len(upstream.seen) == 1
