"""Chatting in the public web app, against a console wired to the real runtime
(tests/chat_stack.py): streamed replies, tool calls, Stop, provider errors, and the conversation
surviving a reload."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests.chat_stack import ChatStack
from tests.console_api_setup import publish_agent, site_token
from tests.console_ui.page_errors import watch_errors
from tests.fakes.upstream import FakeUpstream, Stall, Status, Text


@pytest.fixture
def visitor(browser: Browser, chat_stack: ChatStack) -> Iterator[Page]:
    """A signed-out page (web app visitors have no account); script errors fail the test."""
    context = browser.new_context(base_url=chat_stack.console_url, viewport={"width": 1000, "height": 800})
    page = context.new_page()
    errors = watch_errors(page)
    yield page
    context.close()
    assert not errors, errors


def open_web_app(page: Page, agent: dict) -> Locator:
    """Opens the agent's web app; returns its conversation log."""
    page.goto(f"/chat/{site_token(agent)}")
    return page.get_by_role("log", name="Conversation")


def ask(page: Page, question: str) -> None:
    page.get_by_label("Message").fill(question)
    page.get_by_role("button", name="Send").click()


def expect_composer_ready(page: Page) -> None:
    expect(page.get_by_label("Message")).to_be_enabled()
    expect(page.get_by_role("button", name="Send")).to_be_enabled()
    expect(page.get_by_role("button", name="Stop")).to_be_hidden()


def test_a_reply_streams_in_and_the_conversation_survives_a_reload(
    visitor: Page, chat_stack: ChatStack, fake_upstream: FakeUpstream
) -> None:
    agent = publish_agent(
        chat_stack.api,
        chat_stack.scripted_model,
        name="Orders agent",
        opening_statement="Hello! Ask me about your order.",
        suggested_questions=["Where is my order?"],
    )
    fake_upstream.reply(Text("It ships tomorrow morning."))
    log = open_web_app(visitor, agent)
    visitor.get_by_role("button", name="Where is my order?").click()
    expect(log.get_by_role("article", name="You")).to_have_text("YouWhere is my order?")
    reply = log.get_by_role("article", name="Agent", exact=True)
    expect(reply).to_have_text("Orders agentIt ships tomorrow morning.")
    expect(reply).not_to_have_attribute("aria-busy", "true")
    expect_composer_ready(visitor)

    visitor.reload()
    expect(log.get_by_role("article", name="You")).to_have_text("YouWhere is my order?")
    expect(reply).to_have_text("Orders agentIt ships tomorrow morning.")
    assert len(fake_upstream.calls("/v1/chat")) == 1  # restored from the console, not asked again

    visitor.get_by_role("button", name="New conversation").click()
    expect(log.get_by_role("article")).to_have_count(1)  # the opening statement only
    expect(log.get_by_role("article", name="Opening statement")).to_contain_text("Ask me about your order")
    visitor.reload()
    expect(visitor.get_by_role("button", name="Send")).to_be_enabled()
    expect(log.get_by_role("article")).to_have_count(1)


def test_stop_during_a_stalled_stream_keeps_the_partial_reply(
    visitor: Page, chat_stack: ChatStack, fake_upstream: FakeUpstream
) -> None:
    agent = publish_agent(chat_stack.api, chat_stack.scripted_model)
    fake_upstream.reply(Stall("Here is the beginning"))
    log = open_web_app(visitor, agent)
    ask(visitor, "Tell me everything")
    reply = log.get_by_role("article", name="Agent", exact=True)
    expect(reply).to_contain_text("Here is the beginning")  # shown while the stream is still open
    expect(reply).to_have_attribute("aria-busy", "true")
    expect(visitor.get_by_label("Message")).to_be_disabled()
    expect(visitor.get_by_role("button", name="Send")).to_be_hidden()

    visitor.get_by_role("button", name="Stop").click()
    expect(reply.get_by_text("Stopped", exact=True)).to_be_visible()
    expect(reply).not_to_have_attribute("aria-busy", "true")
    expect_composer_ready(visitor)
    assert fake_upstream.disconnected.wait(5), "the model call was not abandoned"

    visitor.reload()
    expect(reply).to_contain_text("Here is the beginning")
    expect(reply.get_by_text("Stopped", exact=True)).to_be_visible()


def test_tool_calls_are_shown_with_their_results(visitor: Page, chat_stack: ChatStack) -> None:
    agent = publish_agent(
        chat_stack.api, chat_stack.reference_model, tools=[{"name": "sandbox_shell", "enabled": True}]
    )
    log = open_web_app(visitor, agent)
    ask(visitor, "Please run the command `echo ui-$((2*21))`")
    tool = log.get_by_role("group", name="Tool sandbox_shell")
    expect(tool).to_contain_text('"command": "echo ui-$((2*21))"')
    expect(tool).to_contain_text("Result")
    expect(tool).to_contain_text("ui-42")
    expect(log.get_by_role("article", name="Agent", exact=True)).to_contain_text(
        "Tool sandbox_shell returned: ui-42"
    )

    ask(visitor, "Please run the command `sleep 5`")  # longer than the sandbox timeout
    failed = log.get_by_role("group", name="Tool sandbox_shell").last
    expect(failed).to_contain_text("Failed")
    expect(failed).to_contain_text("Command timed out after 1s")


def test_a_provider_error_is_shown_and_the_composer_recovers(
    visitor: Page, chat_stack: ChatStack, fake_upstream: FakeUpstream
) -> None:
    agent = publish_agent(chat_stack.api, chat_stack.scripted_model)
    fake_upstream.reply(Status(401, "Incorrect API key provided"), Text("Working again."))
    log = open_web_app(visitor, agent)
    ask(visitor, "Hello?")
    alert = log.get_by_role("alert")
    expect(alert).to_contain_text("The model provider refused the request (401).")
    expect(alert).to_contain_text("provider_auth_failed")
    expect_composer_ready(visitor)
    expect(visitor.get_by_label("Message")).to_be_focused()

    ask(visitor, "And now?")
    expect(log.get_by_role("article", name="Agent", exact=True).last).to_have_text("Chat agentWorking again.")


def test_a_third_reply_at_once_is_refused_under_the_composer_and_sent_again_later(
    visitor: Page, chat_stack: ChatStack, fake_upstream: FakeUpstream
) -> None:
    """Two replies in progress (one per tab of the same visitor) are the default limit: a third
    question stays in the composer with the console's message, and goes out once one ended."""
    agent = publish_agent(chat_stack.api, chat_stack.scripted_model)
    fake_upstream.reply(Stall("First"), Stall("Second"), Text("Third, at last."))
    tabs = [visitor, visitor.context.new_page(), visitor.context.new_page()]
    for tab, (question, begins) in zip(tabs[:2], (("One", "First"), ("Two", "Second")), strict=True):
        log = open_web_app(tab, agent)
        ask(tab, question)  # into the conversation the first tab started (the tabs share it)
        expect(log.get_by_role("article", name="Agent", exact=True).last).to_contain_text(begins)
    third = tabs[2]
    log = open_web_app(third, agent)
    expect(third.get_by_role("button", name="Send")).to_be_enabled()
    ask(third, "Three")
    alert = third.locator("#composer-error")
    expect(alert).to_have_text(
        "Too many replies at once: you already have 2 in progress. Wait for one to finish, then send "
        "your message again.Error code: too_many_runs"
    )
    expect(alert).to_have_attribute("role", "alert")
    expect(third.get_by_label("Message")).to_have_value("Three")
    expect_composer_ready(third)
    expect(log.get_by_role("article", name="You").filter(has_text="Three")).to_have_count(0)

    tabs[0].get_by_role("button", name="Stop").click()
    expect(tabs[0].get_by_text("Stopped", exact=True)).to_be_visible()
    third.get_by_role("button", name="Send").click()
    expect(alert).to_be_hidden()
    expect(log.get_by_role("article", name="Agent", exact=True).last).to_have_text(
        "Chat agentThird, at last."
    )
    tabs[1].get_by_role("button", name="Stop").click()
    expect(tabs[1].get_by_text("Stopped", exact=True)).to_be_visible()


def test_without_a_runtime_the_web_app_says_chat_is_unavailable(
    page: Page, api: httpx.Client, active_model: dict
) -> None:
    # The UI tests' usual console has no runtime configured.
    published = publish_agent(api, active_model, name=f"Unwired {uuid.uuid4().hex[:8]}")
    try:
        log = open_web_app(page, published)
        ask(page, "Hi")
        expect(log.get_by_role("alert")).to_contain_text("no agent runtime is connected")
        expect_composer_ready(page)
    finally:
        api.delete(f"/console/api/agents/{published['id']}")
