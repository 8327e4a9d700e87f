"""Transcription calls through the replay server: recorded and replayed by the audio's hash and
call site, a different recording misses with a clear reason, nothing secret (nor the audio
itself) reaches the cassette, and fault patches apply."""

from __future__ import annotations

import json
from pathlib import Path

import openai
import pytest

from support.replay.cassette import load_cassette
from support.replay.matching import AudioRequest, audio_request, key_of, key_text
from support.replay.scope import FailPatch
from support.replay.tone_audio import LEAD_IN_S, RATE, encode, wav_of
from tests.fakes.upstream import FakeUpstream

from .conftest import CLIENT_KEY, UPSTREAM_KEY, Replay
from .model_calls import FEATURE, StartReplay, record
from .test_tone_audio import samples_of

AUDIO = b"RIFF\x24\x00\x00\x00WAVEfmt " + bytes(range(200))
CALLER = "speech_to_text"


def transcribe(replay: Replay, audio: bytes = AUDIO, **extra: str) -> str:
    client = replay.client(CALLER)
    result = client.audio.transcriptions.create(
        model="whisper-1", file=("recording.wav", audio, "audio/wav"), extra_body=extra or None
    )
    return result.text


def test_the_key_is_the_audio_hash_and_the_call_site() -> None:
    fields = [("model", "whisper-1"), ("response_format", "json")]
    first = audio_request(fields, AUDIO, "audio/wav", CALLER)
    assert key_of(first) == key_of(
        audio_request([("model", "other-model"), *fields[1:]], AUDIO, "audio/wav", CALLER)
    )
    assert key_of(first) != key_of(audio_request(fields, AUDIO + b"\x00", "audio/wav", CALLER))
    assert key_of(first) != key_of(audio_request(fields, AUDIO, "audio/wav", "another_caller"))
    assert isinstance(first, AudioRequest) and first.model == "whisper-1"
    assert (
        key_text(first).splitlines()[1]
        == f"audio: sha256 {first.audio_sha256} ({len(AUDIO)} bytes, audio/wav)"
    )


def test_the_same_recording_replays_and_another_one_misses(
    start_replay: StartReplay, fake_upstream: FakeUpstream, cassettes: Path
) -> None:
    recorded = record(start_replay, "Voice question", transcribe)
    calls_while_recording = len(fake_upstream.calls("/v1/audio"))
    entry = load_cassette(cassettes / "agent/chat/voice-question.json").entries[0]
    assert entry.call_site == CALLER and entry.request.kind == "audio"

    replay = start_replay()
    replay.control.open_scope("Voice question", FEATURE)
    assert transcribe(replay) == recorded
    assert replay.control.close_scope().ok
    assert len(fake_upstream.calls("/v1/audio")) == calls_while_recording  # replay never calls the provider

    replay.control.open_scope("Voice question", FEATURE)
    with pytest.raises(openai.NotFoundError, match="replay miss"):
        transcribe(replay, AUDIO[:-1])
    report = replay.control.close_scope()
    (miss,) = report.misses
    assert miss.target == "transcription" and miss.call == 0
    assert "no recorded transcription has this audio" in miss.reason
    assert "the product sent a different recording" in miss.reason
    assert f"-audio: sha256 {entry.request.audio_sha256}" in miss.diff  # recorded vs requested
    assert len(report.unconsumed) == 1


def test_a_miss_says_what_the_other_recording_carries_and_where_it_breaks(
    start_replay: StartReplay, cassettes: Path
) -> None:
    clip = encode("Reply with exactly: E2E-VOICE")
    record(start_replay, "Voice glitch", lambda replay: transcribe(replay, clip))
    samples = samples_of(clip)
    sound_starts = int(RATE * LEAD_IN_S)
    samples[sound_starts + 9000 : sound_starts + 9128] = [0] * 128  # a capture that lost 128 samples

    replay = start_replay()
    replay.control.open_scope("Voice glitch", FEATURE)
    with pytest.raises(openai.NotFoundError, match="replay miss"):
        transcribe(replay, wav_of(samples))
    (miss,) = replay.control.close_scope().misses
    assert (
        'it carries "Reply with"; its tone code breaks at 0.2000 s (sample 8820), where 128 of the next '
        "882 samples are zeros"
    ) in miss.reason


def test_no_secret_and_no_audio_reaches_the_cassette(start_replay: StartReplay, cassettes: Path) -> None:
    record(start_replay, "Voice secrets", lambda replay: transcribe(replay, api_key="form-secret-4242"))
    text = (cassettes / "agent/chat/voice-secrets.json").read_text()
    for secret in (UPSTREAM_KEY, CLIENT_KEY, "form-secret-4242"):
        assert secret not in text
    request = json.loads(text)["entries"][0]["request"]
    assert request["fields"]["api_key"] == "<scrubbed>"
    assert "audio" not in request and request["audio_bytes"] == len(AUDIO)


def test_a_fail_patch_fails_one_transcription_and_keeps_the_recording(start_replay: StartReplay) -> None:
    recorded = record(start_replay, "Flaky voice", transcribe)
    replay = start_replay()
    replay.control.open_scope("Flaky voice", FEATURE)
    assert replay.control.add_patch(FailPatch(target="transcription", status=500)).call == 0
    with pytest.raises(openai.InternalServerError):
        transcribe(replay)
    assert transcribe(replay) == recorded
    assert replay.control.close_scope().ok
