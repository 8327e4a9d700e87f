"""Voice input sends what the microphone sent, on both of its capture paths: reading the track's
own blocks (MediaStreamTrackProcessor, Chromium) and, in a browser without that, an audio worklet
tapping Web Audio. The acceptance scenarios cover the first through a fake device; this is the
only test of the second."""

import base64
import io
import wave
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Page, expect

from support.browser.loading import wait_until_loaded
from support.replay import tone_audio
from support.ui.preview import PreviewPane
from tests.fakes.upstream import UpstreamServer

SAID = "Hi E2E"
# The headless shell has no microphone: this one plays a WAV once through Web Audio, then silence
# (a track fed by nothing would stop sending).
PLAYING_MICROPHONE = """wav => {
  Object.defineProperty(navigator, 'mediaDevices', { value: {
    getUserMedia: async () => {
      const context = new AudioContext({ sampleRate: 44100 });
      const bytes = Uint8Array.from(atob(wav), (c) => c.charCodeAt(0));
      const source = new AudioBufferSourceNode(context, { buffer: await context.decodeAudioData(bytes.buffer) });
      const microphone = context.createMediaStreamDestination();
      const silence = new ConstantSourceNode(context, { offset: 0 });
      source.connect(microphone);
      silence.connect(microphone);
      source.start();
      silence.start();
      return microphone.stream;
    },
  } });
}"""
WITHOUT_TRACK_PROCESSOR = "delete window.MediaStreamTrackProcessor"


@pytest.fixture
def speech_model(api: httpx.Client, active_model: dict[str, str]) -> Iterator[None]:
    """The preview shows its microphone button only with a speech-to-text model chosen."""
    chosen = {"decision_model": None, "speech_to_text_model": active_model}
    api.put("/console/api/system-models", json=chosen).raise_for_status()
    yield
    api.put("/console/api/system-models", json={"decision_model": None, "speech_to_text_model": None})


@pytest.mark.usefixtures("speech_model")
@pytest.mark.parametrize("capture", ["track processor", "audio worklet"])
def test_the_recording_carries_what_the_microphone_sent(
    page: Page, agent: dict, upstream_server: UpstreamServer, capture: str
) -> None:
    clip = tone_audio.encode(SAID)
    page.add_init_script(script=f"({PLAYING_MICROPHONE})({base64.b64encode(clip).decode()!r})")
    if capture == "audio worklet":
        page.add_init_script(script=WITHOUT_TRACK_PROCESSOR)
    page.goto(f"/agents/{agent['id']}/configure")
    wait_until_loaded(page)
    # Else the first case would quietly test the worklet twice.
    has_processor = page.evaluate("'MediaStreamTrackProcessor' in window")
    assert has_processor == (capture == "track processor"), (
        f"MediaStreamTrackProcessor present: {has_processor}"
    )
    microphone = PreviewPane(page).microphone
    transcriptions = upstream_server.current.calls("/v1/audio/transcriptions")

    with wave.open(io.BytesIO(clip)) as played:
        microphone.record(seconds=played.getnframes() / played.getframerate())

    expect(microphone.error).to_be_empty()
    uploads = upstream_server.current.calls("/v1/audio/transcriptions")[len(transcriptions) :]
    assert len(uploads) == 1, f"{len(uploads)} recordings were sent to the model, not one"
    _, _, wav = uploads[0].body["file"]
    # Only the text, no difference: the samples are exactly the clip's tones.
    assert tone_audio.describe(wav) == f'it carries "{SAID}"'
