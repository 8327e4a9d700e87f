"""The build assistant on the configure page: asking for a draft, the proposal it shows against
the draft, unavailable tools and datasets, Apply and Discard, and what the draft became."""

from behave import then, when
from behave.runner import Context
from playwright.sync_api import expect

from support.api_setup.agents import current_agent
from support.step_args import data_table, doc_string
from support.ui.build_assistant import BuildAssistantPanel
from support.world import World

# Proposing waits on the decision model (or its replay); longer than a UI assertion.
PROPOSAL_TIMEOUT_MS = 30_000


def _assistant(world: World) -> BuildAssistantPanel:
    return BuildAssistantPanel(world.page)


@when("I ask the build assistant for this agent:")
def step_ask(context: Context) -> None:
    world: World = context.world
    description = doc_string(context).strip()
    world.agent_builder.build_assistant.description = description
    _assistant(world).ask(description)


@then("the build assistant proposes:")
def step_proposes(context: Context) -> None:
    """Each row: a section and what the proposal puts there (list items joined by " / ")."""
    world: World = context.world
    assistant = _assistant(world)
    expect(assistant.proposal).to_be_visible(timeout=PROPOSAL_TIMEOUT_MS)
    asked = world.agent_builder.build_assistant.description
    assert asked, "the scenario asked the build assistant nothing"
    expect(assistant.proposal_description).to_have_text(asked)  # the proposal is for what was asked
    for row in data_table(context):
        expected = [part.strip() for part in row["proposed"].split(" / ")]
        proposed = assistant.proposed(row["section"])
        items = proposed.get_by_role("listitem")
        if len(expected) == 1:
            expect(proposed).to_have_text(expected[0])
        else:
            expect(items).to_have_text(expected)


@then("the build assistant marks the {resource} {string} unavailable")
def step_marks_unavailable(context: Context, kind: str, name: str) -> None:
    section = {"tool": "Tools", "dataset": "Knowledge"}[kind]
    assistant = _assistant(context.world)
    expect(assistant.proposed_item(section, name)).to_contain_text(
        "(unavailable)", timeout=PROPOSAL_TIMEOUT_MS
    )
    expect(assistant.unavailable_note).to_contain_text(f"{name}: No {kind} named '{name}' exists.")


@then("the build assistant explains {string}")
def step_explains(context: Context, text: str) -> None:
    expect(_assistant(context.world).error).to_contain_text(text, timeout=PROPOSAL_TIMEOUT_MS)


@when("I apply the proposal")
def step_apply(context: Context) -> None:
    assistant = _assistant(context.world)
    assistant.apply_button.click()
    expect(assistant.status).to_contain_text("Applied", timeout=PROPOSAL_TIMEOUT_MS)


@when("I discard the proposal")
def step_discard(context: Context) -> None:
    assistant = _assistant(context.world)
    assistant.discard_button.click()
    expect(assistant.status).to_have_text("Proposal discarded: the draft is unchanged.")


@then("the build assistant shows no proposal")
def step_no_proposal(context: Context) -> None:
    expect(_assistant(context.world).proposal).to_be_hidden()


@then("the agent's draft is unchanged")
def step_draft_unchanged(context: Context) -> None:
    world: World = context.world
    agent = current_agent(world)
    after = world.console.get_agent(agent.id).draft
    assert (after.revision, after.config) == (agent.draft.revision, agent.draft.config), (
        f"the draft changed: revision {agent.draft.revision} -> {after.revision}, {after.config!r}"
    )


@then("the proposal was saved as one new revision that keeps the model and parameters")
def step_one_revision(context: Context) -> None:
    world: World = context.world
    before = current_agent(world).draft
    after = world.console.get_agent(current_agent(world).id).draft
    assert after.revision == before.revision + 1, (
        f"the draft went from revision {before.revision} to {after.revision}"
    )
    kept = (after.config.model, after.config.parameters)
    assert kept == (before.config.model, before.config.parameters), f"the draft now has {after.config!r}"
