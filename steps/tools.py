"""Tool settings: the builtin catalog and write-only tool credentials."""

from behave import then, when
from behave.runner import Context
from playwright.sync_api import expect

from support.api_setup.tool_credentials import credential_configured, track_tool_credential_by_name
from support.step_helpers import data_table
from support.ui.tools import ToolsPage
from support.world import World


@when("I open the tool settings")
def step_open_tools(context: Context) -> None:
    """Open the tool settings and wait for them to load."""
    context.world.open(ToolsPage.PATH)


@then("the tool catalog lists:")
def step_catalog_lists(context: Context) -> None:
    """The tool catalog lists each tool of the table, and no other."""
    world: World = context.world
    tools = ToolsPage(world.page)
    rows = data_table(context).rows
    for row in rows:
        expect(tools.tool(row["tool"])).to_be_visible()
    expect(tools.catalog_entries).to_have_count(len(rows))


@then("the tool {string} says whether its credential is configured")
def step_tool_readiness(context: Context, label: str) -> None:
    """The tool's catalog entry says "Ready" with a credential, else "Needs credential".

    Whether the console holds one depends on the lane: its console may be fresh or seeded.
    """
    world: World = context.world
    expected = "Ready" if credential_configured(world, label) else "Needs credential"
    expect(ToolsPage(world.page).tool(label)).to_contain_text(expected)


@when("I add a {string} credential named {string} with the secret {string}")
def step_add_credential(context: Context, tool: str, label: str, secret: str) -> None:
    """Add a tool credential in the page; its name is run-unique."""
    world: World = context.world
    name = world.name(label)
    world.agent_builder.providers.credential_names[label] = name
    track_tool_credential_by_name(world, name)
    ToolsPage(world.page).add_credential(tool, name, secret)


@then("the credential {string} is listed with its secret masked as {string}")
def step_credential_masked(context: Context, label: str, masked: str) -> None:
    """The credential's row shows exactly this mask of its secret (a few characters, never more)."""
    world: World = context.world
    name = world.agent_builder.providers.credential_names[label]
    expect(ToolsPage(world.page).credential_cell(name, masked)).to_be_visible()
