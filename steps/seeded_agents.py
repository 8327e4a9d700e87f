"""The seeded fixture agents on the configure page: every setting exactly as seeded."""

from behave import then, when
from behave.runner import Context
from playwright.sync_api import expect

from support.api.models import AgentDetail
from support.seeded.agents import dataset_names, tool_labels
from support.step_helpers import need
from support.ui.configure import ConfigurePage
from support.world import World


def _fixture_agent(world: World) -> AgentDetail:
    agents = world.agent_builder.seeded.agents
    only = next(iter(agents.values())) if len(agents) == 1 else None
    return need(only, f"Resolve exactly one fixture agent first; resolved: {sorted(agents)}")


@when("I open the fixture agent's configure page")
def step_open_fixture_agent(context: Context) -> None:
    """Open the configure page of the fixture agent the scenario resolved."""
    world: World = context.world
    world.open(ConfigurePage.path(_fixture_agent(world).id))


@then("the configure page shows every setting of the fixture agent")
def step_fixture_settings(context: Context) -> None:
    """Every field of the page equals the fixture agent's spec (seed/data/agents.toml)."""
    world: World = context.world
    agent = _fixture_agent(world)
    config = agent.draft.config
    page = ConfigurePage(world.page)
    expect(page.instructions).to_have_value(config.instructions)
    expect(page.opening_statement).to_have_value(config.opening_statement)
    expect(page.field("Temperature")).to_have_value(_number_input_text(config.parameters.temperature))
    expect(page.field("Max tokens")).to_have_value(str(config.parameters.max_tokens))
    expect(page.suggested_questions).to_have_count(len(config.suggested_questions))
    for index, question in enumerate(config.suggested_questions):
        expect(page.suggested_question(index + 1)).to_have_value(question)
    assert config.model is not None
    expect(page.selected_model).to_contain_text(config.model.name)
    labels = tool_labels(world.console)
    for tool in config.tools:
        expect(page.tool(labels[tool.name])).to_be_checked(checked=tool.enabled)
    expect(page.switched_on_tools).to_have_count(len([tool for tool in config.tools if tool.enabled]))
    expect(page.field("Top K")).to_have_value(str(config.knowledge.top_k))
    if config.knowledge.score_threshold is not None:
        expect(page.field("Score threshold")).to_have_value(
            _number_input_text(config.knowledge.score_threshold)
        )
    names = dataset_names(world.console, agent)
    for name in names:
        expect(page.attached_dataset(name)).to_be_visible()
    expect(page.attached_dataset_rows).to_have_count(max(len(names), 1))  # "No datasets attached"


@then("the tools show the fixture agent's enabled and disabled states")
def step_fixture_tools(context: Context) -> None:
    """Each tool's switch matches the fixture agent's spec, and no other tool is on."""
    world: World = context.world
    tools = _fixture_agent(world).draft.config.tools
    assert {tool.enabled for tool in tools} == {True, False}, "the tool states agent must mix states"
    labels = tool_labels(world.console)
    page = ConfigurePage(world.page)
    for tool in tools:
        expect(page.tool(labels[tool.name])).to_be_checked(checked=tool.enabled)
    # A tool the draft does not name is off too: only the enabled ones are on.
    expect(page.switched_on_tools).to_have_count(len([tool for tool in tools if tool.enabled]))


@then("the knowledge section lists both of the fixture agent's datasets")
def step_fixture_datasets(context: Context) -> None:
    """The knowledge section lists both datasets of the dual-retrieval agent, and no other."""
    world: World = context.world
    names = dataset_names(world.console, _fixture_agent(world))
    assert len(names) == 2, f"the dual retrieval agent has {len(names)} datasets"
    page = ConfigurePage(world.page)
    for name in names:
        expect(page.attached_dataset(name)).to_be_visible()
    expect(page.attached_dataset_rows).to_have_count(2)


def _number_input_text(value: float) -> str:
    """How a number input shows a float: 0.2 -> "0.2", 1.0 -> "1"."""
    return f"{value:g}"
