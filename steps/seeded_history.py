"""Conversation history written through the test seeding router, as the web app shows it."""

from behave import given, then, when
from behave.runner import Context
from playwright.sync_api import expect

from support.api_setup.access import public_urls
from support.api_setup.seeding_router import publish_without_model, seed_exchanges_out_of_order
from support.step_helpers import data_table, need
from support.tags import TEST_HOOKS
from support.ui.web_app import WebAppPage
from support.world import World


@given("the agent has been published via the test seeding router")
@TEST_HOOKS
def step_seed_published(context: Context) -> None:
    """Publish the draft as it is, without a model, through the test seeding router (setup)."""
    publish_without_model(context.world)


@given("a web app conversation with these backdated exchanges has been seeded out of order:")
@TEST_HOOKS
def step_seed_history(context: Context) -> None:
    """Seed a web app conversation, one exchange per question a day apart, handed over out of order."""
    world: World = context.world
    questions = [row["question"] for row in data_table(context)]
    seeded = seed_exchanges_out_of_order(world, questions)
    world.agent_builder.web_app.conversation_id = seeded.id
    WebAppPage(world.page).become_visitor(world.console_url, seeded.visitor_token)


@when("I open the agent's web app on the seeded conversation")
def step_open_seeded(context: Context) -> None:
    """Open the agent's web app as the seeded conversation's visitor, on that conversation."""
    world: World = context.world
    conversation_id = need(
        world.agent_builder.web_app.conversation_id, "no conversation was seeded in this scenario"
    )
    world.page.goto(public_urls(world).web_app)
    WebAppPage(world.page).resume_conversation(conversation_id)


@then("the web app shows the questions oldest first:")
def step_questions_in_order(context: Context) -> None:
    """The web app shows exactly these questions, oldest first, and the last one's answer."""
    web_app = WebAppPage(context.world.page)
    questions = [row["question"] for row in data_table(context)]
    expect(web_app.user_messages).to_have_count(len(questions))
    for message, question in zip(web_app.user_messages.all(), questions, strict=True):
        expect(message).to_contain_text(question)
    expect(web_app.agent_messages.last).to_contain_text(f"Answer to: {questions[-1]}")


@then("the web app shows the newest answer above the composer and the first question out of view")
def step_resumed_at_the_end(context: Context) -> None:
    """A conversation longer than the window opens at its end, its newest answer not under the composer.

    Runs after the check that the whole history is shown: this one does not wait for it."""
    web_app = WebAppPage(context.world.page)
    newest = web_app.agent_messages.last
    expect(newest).to_be_in_viewport(ratio=1)
    assert web_app.shown_above_composer(newest), "the newest answer is in the window but under the composer"
    expect(web_app.user_messages.first).not_to_be_in_viewport()
