"""The published agent's web app: what it shows, and chatting through it."""

import re

from behave import then, when
from behave.runner import Context
from playwright.sync_api import expect

from support.api.models import ChatMessageList
from support.api_setup.access import public_urls
from support.api_setup.agents import saved_agent
from support.goldens import check_region
from support.step_helpers import LONG_WAIT_MS
from support.tags import WEB_APP_CHAT
from support.ui.embedding_site import EMBEDDING_SITE, EmbeddingSite
from support.ui.web_app import WebAppPage
from support.world import World


def _web_app(world: World) -> WebAppPage:
    """The web app the visitor sees: the page itself, or the iframe of a site that embeds it."""
    if world.page.url.startswith(EMBEDDING_SITE):
        return EmbeddingSite(world.page).web_app
    return WebAppPage(world.page)


@when("I open the agent's web app")
def step_open_web_app(context: Context) -> None:
    """Open the published agent's web app URL."""
    world: World = context.world
    world.page.goto(public_urls(world).web_app)


@when("I send the message {string}")
@WEB_APP_CHAT
def step_send(context: Context, text: str) -> None:
    """Type the message in the web app and send it."""
    _web_app(context.world).send(text)


@when("I choose the suggested question {string}")
@WEB_APP_CHAT
def step_choose_suggestion(context: Context, text: str) -> None:
    """Click a suggested question in the web app."""
    _web_app(context.world).suggested_question(text).click()


@when("I watch the replies as they arrive")
def step_watch_replies(context: Context) -> None:
    """The page notes each state of the next reply with its time (for how it streamed in)."""
    _web_app(context.world).watch_replies()


@then("the reply showed its first words at least {int} ms before its end")
@WEB_APP_CHAT
def step_reply_streamed(context: Context, ms: int) -> None:
    """The watched reply was on screen in part, still being written, that long before it was whole.

    The stream reaches the browser as it comes, through the console and any proxy.
    """
    growth = _web_app(context.world).reply_growth()
    partial = next((state for state in growth if state.text and state.busy), None)
    finished = next((state for state in growth if state.text and not state.busy), None)
    assert partial is not None and finished is not None, (
        f"the reply never showed in part, then whole: {growth}"
    )
    shown_ms = finished.at_ms - partial.at_ms
    assert partial.text != finished.text and shown_ms >= ms, (
        f"the reply showed {partial.text!r} only {shown_ms:.0f} ms before it was whole ({finished.text!r}); "
        f"at least {ms} ms expected: something between the runtime and the browser buffers the stream"
    )


@when("I reload the web app")
def step_reload(context: Context) -> None:
    """Reload the web app page."""
    world: World = context.world
    world.page.reload()


@then("the agent replies {string}")
@WEB_APP_CHAT
def step_agent_replies(context: Context, text: str) -> None:
    """The last reply, once finished, is exactly the text."""
    expect(_web_app(context.world).finished_reply_text(LONG_WAIT_MS)).to_have_text(text)


@then("the agent's reply mentions {string}")
@WEB_APP_CHAT
def step_reply_mentions(context: Context, text: str) -> None:
    """The last reply, once finished, contains the text."""
    expect(_web_app(context.world).finished_reply_text(LONG_WAIT_MS)).to_contain_text(text)


@then("the conversation shows the message {string} and then the reply")
@WEB_APP_CHAT
def step_message_then_reply(context: Context, text: str) -> None:
    """The exchange, in order: the user's message, then the agent's reply (nothing else)."""
    messages = _web_app(context.world).exchange_messages
    expect(messages).to_have_count(2)
    expect(messages.first).to_have_accessible_name("You")
    expect(messages.first).to_contain_text(text)
    expect(messages.last).to_have_accessible_name("Agent")


@when("I stop the reply")
@WEB_APP_CHAT
def step_stop(context: Context) -> None:
    """Click Stop while the reply is being written."""
    _web_app(context.world).stop_button.click()


@then("the reply is marked {string}")
@WEB_APP_CHAT
def step_reply_marked(context: Context, status: str) -> None:
    """The last reply carries the status (e.g. "Stopped")."""
    web_app = _web_app(context.world)
    expect(web_app.reply_status(web_app.last_reply, status)).to_be_visible(timeout=LONG_WAIT_MS)


@then("the conversation shows no error")
@WEB_APP_CHAT
def step_no_error(context: Context) -> None:
    """No alert in the web app's conversation (a stop that worked says nothing failed)."""
    expect(_web_app(context.world).conversation_errors).to_have_count(0)


@then("the composer accepts another message")
@WEB_APP_CHAT
def step_composer_ready(context: Context) -> None:
    """The message field and Send are enabled again, and Stop is gone."""
    _web_app(context.world).expect_ready_for_another_message(LONG_WAIT_MS)


@then("I see the provider error mentioning {string}")
@WEB_APP_CHAT
def step_provider_error(context: Context, text: str) -> None:
    """The web app shows the provider's error containing the text."""
    expect(_web_app(context.world).alert).to_contain_text(text, timeout=LONG_WAIT_MS)


@then("the error code shown is {string}")
@WEB_APP_CHAT
def step_error_code(context: Context, code: str) -> None:
    """The web app's error names the runtime's code, so the user can tell what failed."""
    expect(_web_app(context.world).alert).to_contain_text(f"Error code: {code}", timeout=LONG_WAIT_MS)


@then("the tool {string} shows the result {string}")
@WEB_APP_CHAT
def step_tool_result(context: Context, name: str, text: str) -> None:
    """The tool call's panel shows the result text."""
    expect(_web_app(context.world).tool(name)).to_contain_text(text, timeout=LONG_WAIT_MS)


@then("the tool {string} shows an error mentioning {string}")
@WEB_APP_CHAT
def step_tool_error(context: Context, name: str, text: str) -> None:
    """The tool call's panel says "Failed", is drawn as an error, and its error contains the text."""
    web_app = _web_app(context.world)
    tool = web_app.tool(name)
    expect(tool).to_contain_text(re.compile(re.escape(text), re.IGNORECASE), timeout=LONG_WAIT_MS)
    expect(web_app.tool_state(name)).to_have_text("Failed")
    expect(tool).to_have_class(re.compile(r"\berror\b"))  # the danger colours (console.css)


@then("the tool {string} shows exactly the result {string}")
def step_tool_exact_result(context: Context, name: str, text: str) -> None:
    """The tool call's result, once the tool is done, is exactly the text."""
    expect(_web_app(context.world).tool_result(name)).to_have_text(text, timeout=LONG_WAIT_MS)


@then("the tool {string} shows exactly the result {string} while the reply is still being written")
def step_tool_result_mid_reply(context: Context, name: str, text: str) -> None:
    """The tool's card shows its result as soon as the tool is done, before the reply that uses it ends."""
    web_app = _web_app(context.world)
    expect(web_app.tool_result(name)).to_have_text(text, timeout=LONG_WAIT_MS)
    expect(web_app.tool_state(name)).to_have_text("Done")
    expect(web_app.last_reply).to_have_attribute("aria-busy", "true")
    expect(web_app.stop_button).to_be_visible()


@then("the tool {string} shows no secret of the console")
def step_tool_shows_no_secret(context: Context, name: str) -> None:
    """The tool call's card, once done, shows neither the admin password nor a host variable's name."""
    world: World = context.world
    web_app = _web_app(world)
    expect(web_app.tool_done(name)).to_be_visible(timeout=LONG_WAIT_MS)
    output = web_app.tool(name).inner_text()
    # Messages name what leaked, never the value: the report must not carry the secret either.
    assert world.settings.admin_password.get_secret_value() not in output, "the admin password is shown"
    variables = sorted(set(re.findall(r"\b(?:AGENT_BUILDER|E2E)_[A-Z0-9_]+", output)))
    assert not variables, f"the host's variables are shown: {variables}"


@then("the conversation recorded {int} retry")
@then("the conversation recorded {int} retries")
@WEB_APP_CHAT
def step_recorded_retries(context: Context, count: int) -> None:
    """Read the stored conversation through the web app's public API, as the page itself does."""
    world: World = context.world
    reply = ChatMessageList.model_validate(_web_app(world).stored_messages()).data[-1]
    assert reply.role == "assistant" and reply.retries == count, f"the last stored reply is {reply!r}"


@then("the web app conversation matches the golden {string}")
@WEB_APP_CHAT
def step_conversation_golden(context: Context, name: str) -> None:
    """The conversation reads and looks exactly as its golden files."""
    world: World = context.world
    check_region(world.settings, name, _web_app(world).conversation)


@then("the web app shows the agent's name, opening statement and suggested questions")
def step_web_app_shows_agent(context: Context) -> None:
    """The web app shows the published name, opening statement and questions."""
    world: World = context.world
    agent = saved_agent(world)
    assert agent.published is not None, "the agent has no published version"
    expect(world.page).to_have_url(public_urls(world).web_app)
    web_app = _web_app(world)
    expect(web_app.title(agent.name)).to_be_visible()
    expect(web_app.conversation).to_contain_text(agent.published.config.opening_statement)
    questions = agent.published.config.suggested_questions
    for question in questions:
        expect(web_app.suggested_question(question)).to_be_visible()
    expect(web_app.suggestions).to_have_count(len(questions))  # and no other


@then("the web app says it is unavailable")
def step_web_app_says_unavailable(context: Context) -> None:
    """The web app shows that it is unavailable (turned off)."""
    expect(_web_app(context.world).unavailable).to_be_visible()
