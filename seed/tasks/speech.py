"""The speech-to-text model of voice input: chosen as the console's speech-to-text model on the
seeded provider, and verified by a real transcription of the committed voice clip through the
console (`seed/data/speech.toml`)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

from seed.tasks import Done, Outcome, SeedContext, Task
from support.api.models import AgentModelRef
from support.replay.control import ReplayControl
from support.seeded.blocked import Blocked
from support.seeded.specs import PROVIDER_NAME, voice_clip

TASK = "speech-to-text-model"
# The validation call is no scenario's: the replay server keeps it in a cassette of its own.
CASSETTE = "seed/speech-to-text-model.json"


def seed_speech_to_text(ctx: SeedContext) -> Outcome:
    name = ctx.settings.speech_to_text_model_name
    provider = ctx.provider
    if provider is None:  # a dry run whose provider would be created first
        return Outcome("created", f"would choose {name} once {PROVIDER_NAME} exists")
    current = ctx.console.get_system_models()
    desired = AgentModelRef(provider_id=provider.id, name=name)
    chosen = current.speech_to_text_model
    status: Done = "verified" if chosen == desired else "created" if chosen is None else "updated"
    if ctx.dry_run:
        return Outcome(status, f"would choose {name} on {PROVIDER_NAME} and transcribe the voice clip")
    if status != "verified":
        ctx.console.set_system_models(current.model_copy(update={"speech_to_text_model": desired}))
    clip = voice_clip()
    with _replay_scope(ctx):
        heard = ctx.console.transcribe(clip.path.name, clip.path.read_bytes(), "audio/wav").text
    if _words(heard) != _words(clip.transcript):
        raise Blocked(
            f"{name} transcribed {clip.file} as {heard!r}, not {clip.transcript!r}",
            f"set E2E_SPEECH_TO_TEXT_MODEL_NAME to a model that transcribes speech, or record {CASSETTE} again",
        )
    return Outcome(status, f"{name} on {PROVIDER_NAME} transcribed {clip.file} as expected")


def _words(text: str) -> list[str]:
    """Transcripts differ in case and punctuation between models; the words must not."""
    return re.findall(r"[a-z0-9]+", text.lower())


@contextmanager
def _replay_scope(ctx: SeedContext) -> Iterator[None]:
    """Through a replay server, the call runs in a scope of its own (replayed, or recorded)."""
    if ctx.settings.replay_url is None:
        yield
        return
    with ReplayControl(ctx.settings.replay_url) as control:
        control.open_scope(f"seed: {TASK}", cassette=CASSETTE)
        try:
            yield
        finally:
            report = control.close_scope()
        if not report.ok:
            raise Blocked(report.problems_text(), "record the seed's cassette: `make record-cassettes`")


TASKS = (Task(TASK, "seed/speech-to-text", ("model-provider",), seed_speech_to_text),)
