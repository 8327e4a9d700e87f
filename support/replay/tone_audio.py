"""Tone-coded speech: text written into audio as tones, so that a keyless reference model can
"transcribe" a recording deterministically from its samples alone (metadata does not survive a
microphone). The committed voice clips are made with it:

    python -m support.replay.tone_audio write "Reply with exactly: E2E-VOICE" seed/data/audio/x.wav

Each character is a 20 ms cosine (it starts at full amplitude, so the first sample is never 0) at
1000 Hz + 100 Hz x (code - 32), for printable ASCII. Silence surrounds the tones: a browser's fake
microphone may drop the first moments of a clip and keeps sending silence after it, and a
recording trimmed of that silence is then the same samples every time. `decode` counts zero
crossings per symbol (40 + 4 x (code - 32) of them), which any sample rate from 32 kHz keeps.
"""

from __future__ import annotations

import argparse
import io
import itertools
import math
import struct
import sys
import wave
from collections.abc import Sequence
from pathlib import Path

RATE = 44_100  # Chromium's fake capture device runs at 44.1 kHz: no resampling on the way
SYMBOLS_PER_SECOND = 50
LEAD_IN_S = 1.5
TAIL_S = 1.0
_AMPLITUDE = 0.5 * 32767
_FIRST, _LAST = 32, 126


def _frequency(char: str) -> float:
    code = ord(char)
    if not _FIRST <= code <= _LAST:
        raise ValueError(f"tone audio carries printable ASCII only, not {char!r}")
    return 1000.0 + 100.0 * (code - _FIRST)


def encode(text: str, rate: int = RATE) -> bytes:
    """A mono 16-bit WAV of `text` as tones between silences."""
    silence_before, silence_after = [0] * int(rate * LEAD_IN_S), [0] * int(rate * TAIL_S)
    return wav_of(silence_before + _tones(text, rate) + silence_after, rate)


def _tones(text: str, rate: int) -> list[int]:
    length = rate // SYMBOLS_PER_SECOND
    samples: list[int] = []
    for char in text:
        step = 2 * math.pi * _frequency(char) / rate
        samples += [round(_AMPLITUDE * math.cos(step * n)) for n in range(length)]
    return samples


def wav_of(samples: list[int], rate: int = RATE) -> bytes:
    """A mono 16-bit WAV of `samples`."""
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(rate)
        wav.writeframes(struct.pack(f"<{len(samples)}h", *samples))
    return buffer.getvalue()


def decode(audio: bytes) -> str:
    """The text tone-coded in a 16-bit PCM WAV (its first channel). Raises ValueError for audio
    that is not such a WAV; stops at the first symbol that carries no character."""
    samples, rate = _samples(audio)
    return _text(samples, rate)


def describe(audio: bytes) -> str:
    """What a recording says, for a replay miss: the text it carries and, where its samples are not
    that text's clean tones, where and how they differ (a capture that lost or zeroed samples)."""
    try:
        samples, rate = _samples(audio)
    except ValueError as error:
        return f"it is not tone-coded audio ({error})"
    sound = _trimmed(samples)
    text = _text(sound, rate)
    if not text:
        return "it carries no tone-coded text"
    clean = _trimmed(_tones(text, rate))
    said = [f'it carries "{text}"']
    differing = [index for index, (got, want) in enumerate(zip(sound, clean, strict=False)) if got != want]
    if differing:
        first = differing[0]
        zeros = all(sound[index] == 0 for index in differing)
        said.append(
            f"{len(differing)} of its first {len(clean)} samples differ from that text's clean tones, "
            f"the first at {first / rate:.4f} s (sample {first}){', all of them zeros' if zeros else ''}"
        )
    if len(sound) > len(clean):
        broken = sound[len(clean) : len(clean) + rate // SYMBOLS_PER_SECOND]
        said.append(
            f"its tone code breaks at {len(clean) / rate:.4f} s (sample {len(clean)}), where "
            f"{broken.count(0)} of the next {len(broken)} samples are zeros and "
            f"{len(sound) - len(clean)} samples of sound remain"
        )
    elif len(sound) < len(clean):
        said.append(f"it ends {len(clean) - len(sound)} samples before the tones of its last character do")
    return "; ".join(said)


def _samples(audio: bytes) -> tuple[tuple[int, ...], int]:
    try:
        with wave.open(io.BytesIO(audio), "rb") as wav:
            if wav.getsampwidth() != 2:
                raise ValueError("tone audio is 16-bit PCM")
            channels, rate = wav.getnchannels(), wav.getframerate()
            frames = wav.readframes(wav.getnframes())
    except (wave.Error, EOFError) as error:
        raise ValueError(f"not a PCM WAV file: {error}") from None
    return struct.unpack(f"<{len(frames) // 2}h", frames)[::channels], rate


def _text(samples: Sequence[int], rate: int) -> str:
    start = next((index for index, sample in enumerate(samples) if sample), len(samples))
    length = rate // SYMBOLS_PER_SECOND
    text = []
    for offset in range(start, len(samples) - length + 1, length):
        code = _code(samples[offset : offset + length])
        if code is None:
            break
        text.append(chr(code))
    return "".join(text)


def _trimmed(samples: Sequence[int]) -> Sequence[int]:
    """Without the digital silence before and after the sound, as the product trims a recording."""
    start = next((index for index, sample in enumerate(samples) if sample), len(samples))
    end = len(samples)
    while end > start and samples[end - 1] == 0:
        end -= 1
    return samples[start:end]


def _code(window: Sequence[int]) -> int | None:
    signs = [sample > 0 for sample in window if sample]
    if len(signs) < len(window) // 2:
        return None  # silence
    crossings = sum(a != b for a, b in itertools.pairwise(signs))
    code = _FIRST + round((crossings - 40) / 4)
    return code if _FIRST <= code <= _LAST else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m support.replay.tone_audio", description=__doc__.splitlines()[0]
    )
    commands = parser.add_subparsers(dest="command", required=True)
    write = commands.add_parser("write", help="write TEXT as a tone-coded WAV file")
    write.add_argument("text")
    write.add_argument("path", type=Path)
    read = commands.add_parser("read", help="print the text of a tone-coded WAV file")
    read.add_argument("path", type=Path)
    args = parser.parse_args(argv)
    if args.command == "write":
        args.path.parent.mkdir(parents=True, exist_ok=True)
        args.path.write_bytes(encode(args.text))
    else:
        print(decode(args.path.read_bytes()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
