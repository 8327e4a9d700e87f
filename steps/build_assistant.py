"""The build assistant on the configure page: asking for a draft, the proposal it shows against
the draft, unavailable tools and datasets, Apply and Discard, and what the draft became."""

from behave import then, when
from behave.runner import Context
from playwright.sync_api import expect

from support.api_setup.agents import current_agent, saved_agent
from support.step_helpers import LONG_WAIT_MS, data_table, doc_string, need
from support.ui.build_assistant import BuildAssistantPanel
from support.world import World


def _assistant(world: World) -> BuildAssistantPanel:
    return BuildAssistantPanel(world.page)


@when("I ask the build assistant for this agent:")
def step_ask(context: Context) -> None:
    """Describe the agent wanted (the doc string) to the build assistant and ask for a draft."""
    world: World = context.world
    description = doc_string(context).strip()
    world.agent_builder.build_assistant.description = description
    _assistant(world).ask(description)


@then("the build assistant proposes:")
def step_proposes(context: Context) -> None:
    """Each row: a section and what the proposal puts there (list items joined by " / ").

    With a `state` column, also what the section's header says against the draft: "Changes" or
    "No change"."""
    world: World = context.world
    assistant = _assistant(world)
    expect(assistant.proposal).to_be_visible(timeout=LONG_WAIT_MS)
    asked = need(
        world.agent_builder.build_assistant.description, "the scenario asked the build assistant nothing"
    )
    expect(assistant.proposal_description).to_have_text(asked)  # the proposal is for what was asked
    for row in data_table(context):
        expected = [part.strip() for part in row["proposed"].split(" / ")]
        if len(expected) == 1:
            expect(assistant.proposed(row["section"])).to_have_text(expected[0])
        else:
            expect(assistant.proposed_items(row["section"])).to_have_text(expected)
        if row.get("state"):
            expect(assistant.change_state(row["section"])).to_have_text(row["state"])


@then("the build assistant marks the {resource} {string} unavailable")
def step_marks_unavailable(context: Context, kind: str, name: str) -> None:
    """The proposal marks the tool or dataset unavailable, and its note says none has that name."""
    section = {"tool": "Tools", "dataset": "Knowledge"}[kind]
    assistant = _assistant(context.world)
    expect(assistant.proposed_item(section, name)).to_contain_text("(unavailable)", timeout=LONG_WAIT_MS)
    expect(assistant.unavailable_note).to_contain_text(f"{name}: No {kind} named '{name}' exists.")


@then("the build assistant explains {string}")
def step_explains(context: Context, text: str) -> None:
    """The build assistant shows an error containing the text instead of a proposal."""
    expect(_assistant(context.world).error).to_contain_text(text, timeout=LONG_WAIT_MS)


@when("I apply the proposal")
def step_apply(context: Context) -> None:
    """Apply the proposal and wait until the assistant says it was applied."""
    assistant = _assistant(context.world)
    assistant.apply_button.click()
    expect(assistant.status).to_contain_text("Applied", timeout=LONG_WAIT_MS)


@when("I discard the proposal")
def step_discard(context: Context) -> None:
    """Discard the proposal; the assistant says the draft is unchanged."""
    assistant = _assistant(context.world)
    assistant.discard_button.click()
    expect(assistant.status).to_have_text("Proposal discarded: the draft is unchanged.")


@then("the build assistant shows no proposal")
def step_no_proposal(context: Context) -> None:
    """No proposal is shown."""
    expect(_assistant(context.world).proposal).to_be_hidden()


@then("the agent's draft is unchanged")
def step_draft_unchanged(context: Context) -> None:
    """The agent's draft (console API) has the revision and configuration it had before."""
    world: World = context.world
    agent = current_agent(world)
    after = saved_agent(world).draft
    assert (after.revision, after.config) == (agent.draft.revision, agent.draft.config), (
        f"the draft changed: revision {agent.draft.revision} -> {after.revision}, {after.config!r}"
    )


@then("the proposal was saved as one new revision that keeps the model and parameters")
def step_one_revision(context: Context) -> None:
    """The draft (console API) is one revision on, with the model and parameters it had before."""
    world: World = context.world
    before = current_agent(world).draft
    after = saved_agent(world).draft
    assert after.revision == before.revision + 1, (
        f"the draft went from revision {before.revision} to {after.revision}"
    )
    kept = (after.config.model, after.config.parameters)
    assert kept == (before.config.model, before.config.parameters), f"the draft now has {after.config!r}"
