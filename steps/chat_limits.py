"""Limits on replies in progress (docs/console.md, "Chat"): a visitor's replies held open in
several tabs of the web app, one question too many refused for now and kept in the composer, and
sent again once a reply has ended. Model calls are held open by the record/replay server (the
`stalls the next {int} calls` sentences of model_faults.py)."""

from behave import then, when
from behave.api.step_matchers import use_default_step_matcher
from behave.cucumber_expression import use_step_matcher_for_cucumber_expressions
from behave.runner import Context
from playwright.sync_api import expect

from support.api_setup.access import public_urls
from support.browser.loading import wait_until_loaded
from support.step_helpers import LONG_WAIT_MS
from support.tags import WEB_APP_CHAT
from support.ui.web_app import WebAppPage
from support.world import World

# This module's sentences are Cucumber Expressions ({int}, {string}), whatever steps/ defaults to;
# the default comes back at its end, for the modules behave loads after it.
use_step_matcher_for_cucumber_expressions()


def _go_back_to_tab(world: World, number: int) -> None:
    """Later steps act on the tab opened `number`th in this scenario's browser (1: its own page)."""
    tabs = world.browser_context.pages
    assert len(tabs) >= number, f"the browser has {len(tabs)} tab(s), not a tab number {number}"
    world.page = tabs[number - 1]
    world.page.bring_to_front()


@when("I open the agent's web app in another tab")
def step_open_web_app_in_another_tab(context: Context) -> None:
    """A new tab of the same browser (the same visitor) opens the web app; later steps act on it."""
    world: World = context.world
    tab = world.browser_context.new_page()
    tab.goto(public_urls(world).web_app)
    wait_until_loaded(tab)
    world.page = tab


@when("I go back to the first tab")
def step_first_tab(context: Context) -> None:
    """The scenario's own page (its first tab) is the page again."""
    _go_back_to_tab(context.world, 1)


@when("I go back to the second tab")
def step_second_tab(context: Context) -> None:
    """The tab opened second is the page again."""
    _go_back_to_tab(context.world, 2)


@when("I go back to the third tab")
def step_third_tab(context: Context) -> None:
    """The tab opened third is the page again."""
    _go_back_to_tab(context.world, 3)


@then("the web app says {string} under the composer")
@WEB_APP_CHAT
def step_refused_under_composer(context: Context, text: str) -> None:
    """The web app says, outside the conversation, why a question was refused for now.

    The conversation shows no error and no bubble for it.
    """
    web_app = WebAppPage(context.world.page)
    expect(web_app.alert_saying(text)).to_be_visible(timeout=LONG_WAIT_MS)
    expect(web_app.alert).to_have_count(0)  # nothing in the conversation


@then("the message field holds {string} again")
@WEB_APP_CHAT
def step_question_kept(context: Context, text: str) -> None:
    """The refused question waits in the composer, which is usable, and not in the conversation."""
    web_app = WebAppPage(context.world.page)
    expect(web_app.message_field).to_have_value(text)
    web_app.expect_ready_for_another_message(LONG_WAIT_MS)
    expect(web_app.user_messages.filter(has_text=text)).to_have_count(0)


@then("the console has not stored the message {string}")
@WEB_APP_CHAT
def step_not_stored(context: Context, text: str) -> None:
    """The conversation as the console keeps it (read through the web app's API) lacks the message."""
    stored = WebAppPage(context.world.page).stored_messages()
    assert isinstance(stored, dict)
    contents = [message["content"] for message in stored["data"]]
    assert text not in contents, f"the console stored {text!r}: {contents}"


@when("I send what the message field holds")
@WEB_APP_CHAT
def step_send_again(context: Context) -> None:
    """Press Send on the text the composer holds."""
    WebAppPage(context.world.page).send_button.click()


@then("the agent is writing its reply to {string}")
@WEB_APP_CHAT
def step_reply_in_progress(context: Context, text: str) -> None:
    """The question is in the conversation and its reply is being written (the console took it)."""
    web_app = WebAppPage(context.world.page)
    expect(web_app.last_question).to_contain_text(text)
    expect(web_app.last_reply).to_have_attribute("aria-busy", "true", timeout=LONG_WAIT_MS)
    expect(web_app.stop_button).to_be_visible()


use_default_step_matcher()
