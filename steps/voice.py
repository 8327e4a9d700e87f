"""Voice input with the fake microphone of @microphone scenarios (support/browser/session.py): recording
in the preview or the web app, what lands in the composer, and why voice input failed. The
sentences that use the microphone are also `support/tags.py` constants, for the linter (they need
the tag, and it needs them); tests/harness/test_cucumber_expressions.py keeps the two equal."""

from behave import given, then, when
from behave.runner import Context
from playwright.sync_api import expect

from support.seeded.specs import voice_clip
from support.step_helpers import need
from support.ui.preview import PreviewPane
from support.ui.voice import MicrophoneControl
from support.ui.web_app import WebAppPage
from support.world import World

# The recording must outlast the clip: the fake microphone plays it once from when it opens.
MARGIN_S = 0.5


def _record(world: World, microphone: MicrophoneControl) -> None:
    microphone.record(_clip_seconds(world))


def _clip_seconds(world: World) -> float:
    clip = voice_clip()
    world.agent_builder.speech_to_text.clip = clip
    return clip.duration_s + MARGIN_S


def _recorded_transcript(world: World) -> str:
    return need(world.agent_builder.speech_to_text.clip, "nothing was recorded in this scenario").transcript


@given("the browser denies microphone access")  # support.tags.DENY_MICROPHONE_STEP
def step_deny_microphone(context: Context) -> None:
    """The browser refuses the page the microphone, as after a user said no to its prompt."""
    world: World = context.world
    world.browser_context.clear_permissions()
    world.browser_context.grant_permissions(["clipboard-read", "clipboard-write"])


@when("I record a voice message in the preview")  # support.tags.RECORD_IN_PREVIEW_STEP
def step_record_in_preview(context: Context) -> None:
    """Record the seeded voice clip with the preview's microphone, and wait for its transcription."""
    world: World = context.world
    _record(world, PreviewPane(world.page).microphone)


@when("I record a voice message in the web app")  # support.tags.RECORD_IN_WEB_APP_STEP
def step_record_in_web_app(context: Context) -> None:
    """Record the seeded voice clip with the web app's microphone, and wait for its transcription."""
    world: World = context.world
    _record(world, WebAppPage(world.page).microphone)


@when("I start a voice message in the preview")  # support.tags.START_RECORDING_IN_PREVIEW_STEP
def step_start_in_preview(context: Context) -> None:
    """Press the preview's record button (and no more)."""
    PreviewPane(context.world.page).microphone.start()


@when(
    "I record a voice message in the preview while the console holds its transcription"
)  # support.tags.RECORD_HELD_IN_PREVIEW_STEP
def step_record_held_in_preview(context: Context) -> None:
    """Record the seeded voice clip with the preview's microphone and stop; its transcription is "the held transcription"."""
    world: World = context.world
    microphone = PreviewPane(world.page).microphone
    world.held["transcription"] = microphone.hold_next_transcription(world.settings.timeout_ms)
    microphone.record_and_stop(_clip_seconds(world))


@then("voice input in the preview says {string}")
def step_preview_says(context: Context, text: str) -> None:
    """The preview's voice input status reads exactly the text."""
    expect(PreviewPane(context.world.page).microphone.status).to_have_text(text)


@then("the preview's microphone cannot be used")
def step_preview_microphone_disabled(context: Context) -> None:
    """The preview's record button is disabled."""
    expect(PreviewPane(context.world.page).microphone.record_button).to_be_disabled()


@then("voice input in the preview explains {string}")
def step_preview_explains(context: Context, text: str) -> None:
    """The preview's voice input shows an error containing the text."""
    expect(PreviewPane(context.world.page).microphone.error).to_contain_text(text)


@then("the preview message field holds what the microphone heard")
def step_preview_field_holds_clip(context: Context) -> None:
    """The preview's message field holds the recorded clip's transcript."""
    world: World = context.world
    expect(PreviewPane(world.page).message_field).to_have_value(_recorded_transcript(world))


@then("the web app message field holds what the microphone heard")
def step_web_app_field_holds_clip(context: Context) -> None:
    """The web app's message field holds the recorded clip's transcript."""
    world: World = context.world
    expect(WebAppPage(world.page).message_field).to_have_value(_recorded_transcript(world))


@when("I send the web app message")
def step_send_web_app_message(context: Context) -> None:
    """Press Send on what the web app's message field holds."""
    WebAppPage(context.world.page).send_button.click()
