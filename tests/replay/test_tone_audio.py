"""Tone-coded speech: what the reference model reads out of a recording's samples."""

from __future__ import annotations

import io
import struct
import wave

import pytest

from support.replay.tone_audio import LEAD_IN_S, RATE, decode, encode, wav_of


def samples_of(audio: bytes) -> list[int]:
    with wave.open(io.BytesIO(audio)) as wav:
        frames = wav.readframes(wav.getnframes())
    return list(struct.unpack(f"<{len(frames) // 2}h", frames))


@pytest.mark.parametrize("rate", [RATE, 48_000, 32_000])
def test_text_survives_the_round_trip_at_common_rates(rate: int) -> None:
    text = "Reply with exactly: E2E-VOICE-42 ~{}"
    assert decode(encode(text, rate)) == text


def test_a_recording_that_lost_part_of_its_silence_reads_the_same() -> None:
    samples = samples_of(encode("Hello"))
    # What a fake microphone delivers: a later start, then silence for as long as it records.
    recorded = samples[int(RATE * LEAD_IN_S * 0.7) :] + [0] * RATE
    assert decode(wav_of(recorded)) == "Hello"
    assert samples[int(RATE * LEAD_IN_S)] != 0  # the tones start at full amplitude


def test_non_ascii_text_and_non_wav_audio_are_refused() -> None:
    with pytest.raises(ValueError, match="printable ASCII"):
        encode("Grüße")
    with pytest.raises(ValueError, match="not a PCM WAV"):
        decode(b"OggS not a wav")
    assert decode(wav_of([0] * RATE)) == ""
