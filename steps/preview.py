"""The configure page's preview: asking the draft, its replies, tool cards and citations, Stop,
Restart, provider errors and retries, saves during a reply, and its goldens."""

import json

from behave import then, when
from behave.runner import Context
from playwright.sync_api import expect

from support.api_setup.agents import current_agent, last_preview_reply
from support.goldens import check_region, check_text, event_sequence
from support.step_helpers import LONG_WAIT_MS, need
from support.ui.preview import PreviewPane
from support.world import World


def _preview(world: World) -> PreviewPane:
    return PreviewPane(world.page)


@when("I ask the preview {string}")
def step_ask(context: Context, text: str) -> None:
    """Type the question in the preview and send it."""
    world: World = context.world
    world.agent_builder.preview.replies.append(_preview(world).ask(text))


@when("I send the preview message")
def step_send(context: Context) -> None:
    """Send what the preview's message field holds."""
    world: World = context.world
    world.agent_builder.preview.replies.append(_preview(world).send())


@then("the preview replies {string}")
def step_replies(context: Context, text: str) -> None:
    """The preview's last reply, once finished, is exactly the text."""
    expect(_preview(context.world).finished_reply_text(LONG_WAIT_MS)).to_have_text(text)


@then("the preview's reply mentions {string}")
def step_reply_mentions(context: Context, text: str) -> None:
    """The preview's last reply, once finished, contains the text."""
    expect(_preview(context.world).finished_reply_text(LONG_WAIT_MS)).to_contain_text(text)


@then("the preview tool {string} shows the result {string}")
def step_tool_result(context: Context, name: str, text: str) -> None:
    """The preview's card of the tool call shows the result text."""
    expect(_preview(context.world).tool(name)).to_contain_text(text, timeout=LONG_WAIT_MS)


@then("the preview tool {string} cites {string}")
def step_tool_cites(context: Context, name: str, source: str) -> None:
    """The preview's card of the tool call lists the source once."""
    expect(_preview(context.world).sources(name).filter(has_text=source)).to_have_count(
        1, timeout=LONG_WAIT_MS
    )


@then("the preview shows the provider error mentioning {string}")
def step_provider_error(context: Context, text: str) -> None:
    """The preview shows the provider's error containing the text."""
    expect(_preview(context.world).alert).to_contain_text(text, timeout=LONG_WAIT_MS)


@then("the preview composer accepts another message")
def step_composer_ready(context: Context) -> None:
    """The preview's message field and Send are enabled again, and Stop is gone."""
    _preview(context.world).expect_ready_for_another_message(LONG_WAIT_MS)


@when("I stop the preview reply")
def step_stop(context: Context) -> None:
    """Click Stop while the preview's reply is being written."""
    _preview(context.world).stop_button.click()


@then("the preview reply is marked {string}")
def step_reply_marked(context: Context, status: str) -> None:
    """The preview's last reply carries the status (e.g. "Stopped")."""
    preview = _preview(context.world)
    expect(preview.reply_status(preview.last_reply, status)).to_be_visible(timeout=LONG_WAIT_MS)


@then("the preview conversation shows no error")
def step_preview_no_error(context: Context) -> None:
    """No alert in the preview's conversation (a stop that worked says nothing failed)."""
    expect(_preview(context.world).conversation_errors).to_have_count(0)


@when("I restart the preview")
def step_restart(context: Context) -> None:
    """Click Restart: the preview starts a new conversation."""
    _preview(context.world).restart_button.click()


@then("the preview conversation is empty")
def step_empty(context: Context) -> None:
    """The preview shows no question and no reply."""
    preview = _preview(context.world)
    expect(preview.user_messages).to_have_count(0)
    expect(preview.agent_messages).to_have_count(0)


@then("the preview shows {int} question")
@then("the preview shows {int} questions")
def step_question_count(context: Context, count: int) -> None:
    """The preview's conversation holds that many questions."""
    expect(_preview(context.world).user_messages).to_have_count(count, timeout=LONG_WAIT_MS)


@then("the preview says {string}")
def step_says(context: Context, text: str) -> None:
    """The preview's notice reads exactly the text."""
    expect(_preview(context.world).notice).to_have_text(text)


@then("the preview opens with {string}")
def step_opens_with(context: Context, text: str) -> None:
    """The preview's conversation starts with exactly this opening statement, shown once."""
    preview = _preview(context.world)
    expect(preview.opening_statements).to_have_count(1)
    expect(preview.opening_statement_text()).to_have_text(text)


@then("the preview shows no opening statement")
def step_no_opening(context: Context) -> None:
    """The preview's conversation starts without an opening statement."""
    expect(_preview(context.world).opening_statements).to_have_count(0)


@then("the preview suggests {strings}")
def step_suggests(context: Context, questions: list[str]) -> None:
    """The preview offers exactly these suggested questions, in this order."""
    expect(_preview(context.world).suggestions).to_have_text(questions)


@then("the preview message field shows {string}")
def step_message_field(context: Context, text: str) -> None:
    """The preview's message field holds exactly the text."""
    expect(_preview(context.world).message_field).to_have_value(text)


@then("the preview message field is empty")
def step_message_field_empty(context: Context) -> None:
    """The preview's message field is empty."""
    expect(_preview(context.world).message_field).to_have_value("")


@then("the preview conversation recorded {int} retry")
@then("the preview conversation recorded {int} retries")
def step_recorded_retries(context: Context, count: int) -> None:
    """Read the stored preview conversation through the console API, as the pane itself does."""
    world: World = context.world
    conversation_id = need(
        _preview(world).stored_conversation_id(current_agent(world).id), "the preview holds no conversation"
    )
    reply = last_preview_reply(world, conversation_id)
    assert reply.role == "assistant" and reply.retries == count, f"the last stored reply is {reply!r}"


def _sse(body: str) -> list[tuple[str, object]]:
    events = []
    for block in body.strip().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        events.append((fields["event"], json.loads(fields["data"])))
    return events


@then("the preview's event stream matches the golden {string}")
def step_stream_golden(context: Context, name: str) -> None:
    """The last reply's events, read from the response the page received (complete: it ended)."""
    world: World = context.world
    replies = world.agent_builder.preview.replies
    assert replies, "the scenario asked the preview nothing"
    check_text(world.settings, f"{name}.json", event_sequence(_sse(replies[-1].text())))


@then("the preview conversation matches the golden {string}")
def step_conversation_golden(context: Context, name: str) -> None:
    """The preview conversation reads and looks exactly as its golden files."""
    world: World = context.world
    check_region(world.settings, name, _preview(world).conversation)
