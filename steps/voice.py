"""Voice input with the fake microphone of @microphone scenarios (support/browser.py): recording
in the preview or the web app, what lands in the composer, and why voice input failed. The step
texts that use the microphone are `support/tags.py`'s: they need the tag, and it needs them."""

from behave import given, then, when
from behave.runner import Context
from playwright.sync_api import expect

from support.seeded.specs import voice_clip
from support.tags import (
    DENY_MICROPHONE_STEP,
    RECORD_IN_PREVIEW_STEP,
    RECORD_IN_WEB_APP_STEP,
    START_RECORDING_IN_PREVIEW_STEP,
)
from support.ui.preview import PreviewPane
from support.ui.voice import MicrophoneControl
from support.ui.web_app import WebAppPage
from support.world import World

# The recording must outlast the clip: the fake microphone plays it once from when it opens.
MARGIN_S = 0.5


def _record(world: World, microphone: MicrophoneControl) -> None:
    clip = voice_clip()
    world.agent_builder.speech_to_text.clip = clip
    microphone.record(clip.duration_s + MARGIN_S)


def _recorded_transcript(world: World) -> str:
    clip = world.agent_builder.speech_to_text.clip
    assert clip is not None, "nothing was recorded in this scenario"
    return clip.transcript


@given(DENY_MICROPHONE_STEP)
def step_deny_microphone(context: Context) -> None:
    """The browser refuses the page the microphone, as after a user said no to its prompt."""
    world: World = context.world
    world.browser_context.clear_permissions()
    world.browser_context.grant_permissions(["clipboard-read", "clipboard-write"])


@when(RECORD_IN_PREVIEW_STEP)
def step_record_in_preview(context: Context) -> None:
    world: World = context.world
    _record(world, PreviewPane(world.page).microphone)


@when(RECORD_IN_WEB_APP_STEP)
def step_record_in_web_app(context: Context) -> None:
    world: World = context.world
    _record(world, WebAppPage(world.page).microphone)


@when(START_RECORDING_IN_PREVIEW_STEP)
def step_start_in_preview(context: Context) -> None:
    PreviewPane(context.world.page).microphone.start()


@then('voice input in the preview explains "{text}"')
def step_preview_explains(context: Context, text: str) -> None:
    expect(PreviewPane(context.world.page).microphone.error).to_contain_text(text)


@then("the preview message field holds what the microphone heard")
def step_preview_field_holds_clip(context: Context) -> None:
    world: World = context.world
    expect(PreviewPane(world.page).message_field).to_have_value(_recorded_transcript(world))


@then("the web app message field holds what the microphone heard")
def step_web_app_field_holds_clip(context: Context) -> None:
    world: World = context.world
    expect(WebAppPage(world.page).message_field).to_have_value(_recorded_transcript(world))


@when("I send the web app message")
def step_send_web_app_message(context: Context) -> None:
    WebAppPage(context.world.page).send_button.click()
