"""The publish bar: publish state, publishing, refused publishes."""

import re

from behave import given, then, when
from behave.runner import Context
from playwright.sync_api import expect

from support.api_setup.agents import RUNNABLE_INSTRUCTIONS, publish_agent, saved_agent
from support.step_helpers import data_table
from support.ui.publish_bar import PublishBar
from support.world import World


@then("the publish bar shows {string}")
def step_publish_bar_shows(context: Context, text: str) -> None:
    """The publish bar shows exactly the text ("Saved", "Published v1 · up to date")."""
    world: World = context.world
    expect(PublishBar(world.page).shows(text)).to_be_visible()


@then("the publish bar does not show {string}")
def step_publish_bar_lacks(context: Context, text: str) -> None:
    """The publish bar does not show the text (a state that is not true yet)."""
    world: World = context.world
    expect(PublishBar(world.page).shows(text)).to_have_count(0)


@when("I publish the agent")
def step_publish(context: Context) -> None:
    """Click Publish in the publish bar."""
    world: World = context.world
    PublishBar(world.page).publish()


@then("publishing is refused with the reasons:")
def step_publish_refused(context: Context) -> None:
    """Publishing is refused with exactly these reasons, in any order."""
    reasons = [row["reason"] for row in data_table(context)]
    publish_bar = PublishBar(context.world.page)
    expect(publish_bar.refusal_reasons).to_have_count(len(reasons))
    for reason in reasons:
        expect(publish_bar.refusal_reason(reason)).to_have_count(1)


@then("publishing is refused with a reason mentioning {string}")
def step_publish_refused_mentioning(context: Context, text: str) -> None:
    """Publishing is refused with a reason containing the text."""
    world: World = context.world
    expect(PublishBar(world.page).publish_error).to_contain_text(re.compile(re.escape(text)))


@then("the agent has no published version")
def step_no_published_version(context: Context) -> None:
    """The agent (console API) has no published version."""
    agent = saved_agent(context.world)
    assert agent.published is None, f"the agent has published version v{agent.published.version}"
    assert not agent.access.published, "the access state says the agent is published"


@given("the agent has been published via API")
def step_published_via_api(context: Context) -> None:
    """Publish the agent through the API (setup)."""
    publish_agent(context.world)


@then("the agent's published version is {int}")
def step_published_version(context: Context, version: int) -> None:
    """The agent's published version (console API) is this number."""
    published = saved_agent(context.world).published
    assert published is not None, "the agent has no published version"
    assert published.version == version, f"the published version is v{published.version}"


@then("the agent's published instructions are {string}")
def step_published_instructions(context: Context, text: str) -> None:
    """The published version (console API) has these instructions."""
    published = saved_agent(context.world).published
    assert published is not None, "the agent has no published version"
    assert published.config.instructions == text, f"published instructions: {published.config.instructions!r}"


@then("the agent's published instructions are still the runnable agent's instructions")
def step_published_instructions_unchanged(context: Context) -> None:
    """The published version still has the runnable agent's instructions."""
    agent = saved_agent(context.world)
    assert agent.published is not None, "the agent has no published version"
    assert agent.published.config.instructions == RUNNABLE_INSTRUCTIONS, agent.published.config.instructions
