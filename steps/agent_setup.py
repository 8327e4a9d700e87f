"""API setup sentences that create scenario-owned agents (see features/README.md)."""

from behave import given, step
from behave.runner import Context

from support.api.models import AgentConfig, AgentModelRef
from support.setup import create_basic_agent, current_agent, remember_agent
from support.world import World


@given("a basic configured agent has been created via API")
def step_basic_agent(context: Context) -> None:
    create_basic_agent(context.world)


@given('a basic configured agent named "{label}" has been created via API')
def step_basic_agent_named(context: Context, label: str) -> None:
    create_basic_agent(context.world, label)


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
