"""API setup sentences that create scenario-owned agents (see features/README.md)."""

from behave import given, step
from behave.runner import Context

from support.api.models import AgentConfig, AgentModelRef, AgentTool, Model
from support.setup import (
    create_basic_agent,
    create_runnable_agent,
    current_agent,
    remember_agent,
    track_agent,
)
from support.world import World

DECISION_INSTRUCTIONS = (
    "You are the E2E decision agent. Plan the steps a task needs, use the enabled tools, "
    "then answer with the result."
)


@given("a basic configured agent has been created via API")
def step_basic_agent(context: Context) -> None:
    create_basic_agent(context.world)


@given('a basic configured agent named "{label}" has been created via API')
def step_basic_agent_named(context: Context, label: str) -> None:
    create_basic_agent(context.world, label)


def _resolved(model: Model | None, agent: str, fixture_step: str) -> Model:
    """The seeded model an earlier fixture step resolved; a scenario never picks one itself."""
    if model is None:
        raise AssertionError(f"A {agent} runs on a seeded model: put `Given {fixture_step}` before it.")
    return model


@given("a runnable agent has been created via API")
def step_runnable_agent(context: Context) -> None:
    world: World = context.world
    fixtures = world.agent_builder.fixtures
    model = _resolved(fixtures.stable_model, "runnable agent", "the stable chat model is available")
    create_runnable_agent(world, model)


# Only for autonomous planning; general runtime behaviour uses the runnable agent (stable model).
@given("a decision agent has been created via API")
def step_decision_agent(context: Context) -> None:
    world: World = context.world
    fixtures = world.agent_builder.fixtures
    model = _resolved(fixtures.decision_model, "decision agent", "the decision chat model is available")
    agent = track_agent(world, world.console.create_agent(world.name("decision agent")), "agent")
    config = AgentConfig(
        instructions=DECISION_INSTRUCTIONS,
        model=AgentModelRef(provider_id=model.provider_id, name=model.name),
        tools=[AgentTool(name="json_replace"), AgentTool(name="sandbox_shell")],
    )
    remember_agent(world, world.console.save_draft(agent.id, config), "agent")


@given("the agent's draft refers to a model that does not exist")
def step_draft_with_missing_model(context: Context) -> None:
    world: World = context.world
    agent = current_agent(world)
    config = agent.draft.config.model_copy(
        update={"model": AgentModelRef(provider_id="e2e-missing-provider", name="e2e-missing-model")}
    )
    remember_agent(world, world.console.save_draft(agent.id, config), "agent")


# Used mid-scenario ("When I open ... And another tab saves ..."), so it matches any keyword.
@step('another tab saves the instructions "{instructions}"')
def step_other_tab_saves(context: Context, instructions: str) -> None:
    world: World = context.world
    agent = world.console.get_agent(current_agent(world).id)
    config: AgentConfig = agent.draft.config.model_copy(update={"instructions": instructions})
    world.console.save_draft(agent.id, config)


@given('the agent has the tool "{tool}" enabled via API')
def step_tool_enabled_via_api(context: Context, tool: str) -> None:
    world: World = context.world
    agent = world.console.get_agent(current_agent(world).id)
    tools = [t for t in agent.draft.config.tools if t.name != tool] + [AgentTool(name=tool, enabled=True)]
    remember_agent(
        world,
        world.console.save_draft(agent.id, agent.draft.config.model_copy(update={"tools": tools})),
        "agent",
    )
