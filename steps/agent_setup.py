"""API setup of scenario-owned agents: creating them, and changing their draft as another client would."""

from behave import given, step
from behave.runner import Context

from support.api.models import AgentModelRef
from support.api_setup.agents import (
    change_draft,
    create_basic_agent,
    create_decision_agent,
    create_runnable_agent,
    delete_agent,
    disable_tool,
    enable_tool,
    publish_agent,
)
from support.step_helpers import need
from support.tags import DECISION_MODEL_STEP, STABLE_MODEL_STEP
from support.world import World

# A setup agent runs on the seeded model a fixture step resolved: a scenario never picks one itself.
STABLE_MODEL_FIRST = f"A runnable agent runs on a seeded model: put `Given {STABLE_MODEL_STEP}` before it."
DECISION_MODEL_FIRST = (
    f"A decision agent runs on a seeded model: put `Given {DECISION_MODEL_STEP}` before it."
)


@given("a basic configured agent has been created via API")
def step_basic_agent(context: Context) -> None:
    """A model-free agent with instructions, created through the API; any lane."""
    create_basic_agent(context.world)


@given("the agent has been deleted via API")
def step_agent_deleted(context: Context) -> None:
    """Delete the agent through the console API, as another tab or an admin would."""
    delete_agent(context.world)


@given("a basic configured agent named {string} has been created via API")
def step_basic_agent_named(context: Context, label: str) -> None:
    """The same basic agent, addressable later by its label."""
    create_basic_agent(context.world, label)


@given("a basic configured agent whose name ends in {string} has been created via API")
def step_basic_agent_name_ending(context: Context, ending: str) -> None:
    """The same basic agent, its run-unique name followed by the words (quotes, markup) as typed."""
    create_basic_agent(context.world, name_ending=ending)


@given("{int} basic configured agents have been created via API")
def step_many_basic_agents(context: Context, count: int) -> None:
    """That many basic agents, each named for its number; the last is "the agent"."""
    for number in range(1, count + 1):
        create_basic_agent(context.world, f"bulk-{number}")


@given("a basic configured agent with a name of {int} characters has been created via API")
def step_basic_agent_long_name(context: Context, length: int) -> None:
    """The same basic agent, its run-unique name padded to that many characters (the name limit: 80)."""
    create_basic_agent(context.world, name_length=length)


@given("a runnable agent has been created via API")
def step_runnable_agent(context: Context) -> None:
    """An agent on the seeded stable model; needs the stable model fixture first."""
    world: World = context.world
    create_runnable_agent(world, need(world.agent_builder.seeded.stable_model, STABLE_MODEL_FIRST))


# Only for autonomous planning; general runtime behaviour uses the runnable agent (stable model).
@given("a decision agent has been created via API")
def step_decision_agent(context: Context) -> None:
    """An agent on the decision model, only for autonomous planning."""
    world: World = context.world
    create_decision_agent(world, need(world.agent_builder.seeded.decision_model, DECISION_MODEL_FIRST))


@given("the agent's draft refers to a model that does not exist")
def step_draft_with_missing_model(context: Context) -> None:
    """Point the draft at a model id the console does not have (API setup)."""
    missing = AgentModelRef(provider_id="e2e-missing-provider", name="e2e-missing-model")
    change_draft(context.world, model=missing)


# Used mid-scenario ("When I open ... And another tab saves ..."), so it matches any keyword.
@step("another tab saves the instructions {string}")
def step_other_tab_saves(context: Context, instructions: str) -> None:
    """Save the instructions through the API, as another browser tab would."""
    change_draft(context.world, instructions=instructions)


@given("the agent greets with {string} and suggests {string} and {string} via API")
def step_greeting_via_api(context: Context, opening: str, first: str, second: str) -> None:
    """Save the opening statement and two suggested questions in the draft through the API (setup)."""
    change_draft(context.world, opening_statement=opening, suggested_questions=[first, second])


@step("another tab saves the opening statement {string}")
def step_other_tab_saves_opening(context: Context, text: str) -> None:
    """Save the opening statement through the API, as another browser tab would."""
    change_draft(context.world, opening_statement=text)


@given("another runnable agent has been created and published via API")
def step_another_published_agent(context: Context) -> None:
    """A second runnable agent, published through the API; it becomes "the agent"."""
    world: World = context.world
    create_runnable_agent(world, need(world.agent_builder.seeded.stable_model, STABLE_MODEL_FIRST), "another")
    publish_agent(world)


@given("the agent has the tool {string} enabled via API")
def step_tool_enabled_via_api(context: Context, tool: str) -> None:
    """Enable a tool in the agent's draft through the API (setup)."""
    enable_tool(context.world, tool)


@given("the agent has the tool {string} disabled via API")
def step_tool_disabled_via_api(context: Context, tool: str) -> None:
    """Keep a tool in the agent's draft, switched off, through the API (setup)."""
    disable_tool(context.world, tool)
