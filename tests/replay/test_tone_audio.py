"""Tone-coded speech: what the reference model reads out of a recording's samples."""

from __future__ import annotations

import io
import struct
import wave

import pytest

from support.replay.tone_audio import LEAD_IN_S, RATE, decode, describe, encode, wav_of


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


CLIP_TEXT = "Reply with exactly: E2E-VOICE"
SOUND_STARTS = int(RATE * LEAD_IN_S)


def test_a_clean_recording_is_described_by_its_text_alone() -> None:
    assert describe(encode(CLIP_TEXT)) == f'it carries "{CLIP_TEXT}"'


def test_a_description_says_which_samples_differ_from_the_clean_tones() -> None:
    samples = samples_of(encode(CLIP_TEXT))
    samples[SOUND_STARTS + 9005] += 3  # too small to change a character
    assert describe(wav_of(samples)) == (
        f'it carries "{CLIP_TEXT}"; 1 of its first 25578 samples differ from that text\'s clean tones, '
        "the first at 0.2042 s (sample 9005)"
    )


def test_a_description_says_where_the_tone_code_breaks_and_what_is_there() -> None:
    samples = samples_of(encode(CLIP_TEXT))
    samples[SOUND_STARTS + 9000 : SOUND_STARTS + 9128] = [0] * 128
    assert describe(wav_of(samples)) == (
        'it carries "Reply with"; its tone code breaks at 0.2000 s (sample 8820), where 128 of the next '
        "882 samples are zeros and 16758 samples of sound remain"
    )


def test_a_description_of_what_is_not_tone_coded_speech() -> None:
    assert describe(wav_of([0] * RATE)) == "it carries no tone-coded text"
    assert describe(b"OggS").startswith("it is not tone-coded audio (not a PCM WAV file")
