"""Tool settings: the builtin catalog and write-only tool credentials."""

from behave import given, step, then, when
from behave.runner import Context
from playwright.sync_api import expect

from support.api_setup.tool_credentials import (
    add_web_search_credential,
    credential_state,
    track_tool_credential_by_name,
    web_search_credential_names,
)
from support.browser.tone import expect_tone
from support.goldens import check_region
from support.step_helpers import data_table
from support.tags import FRESH_CONSOLE
from support.ui.tools import ToolsPage
from support.world import World

# What the catalog's badge says for each credential state of the console's tool list.
_STATE_TEXT = {
    "not_required": "Ready",
    "configured": "Credential configured",
    "missing": "Needs credential",
    "invalid": "Credential invalid",
}


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
    """The tool's catalog badge says its credential state, as the console's tool list gives it.

    "Credential configured" with a usable credential, "Needs credential" without one, "Credential
    invalid" when each failed its last check. Whether the console holds one depends on the lane: its console may be fresh or seeded.
    """
    world: World = context.world
    expected = _STATE_TEXT[credential_state(world, label)]
    expect(ToolsPage(world.page).catalog_state(label, expected)).to_be_visible()


@then("the tool catalog matches the golden {string}")
def step_catalog_golden(context: Context, name: str) -> None:
    """The catalog reads and looks exactly as its golden files (as a page's main content)."""
    world: World = context.world
    check_region(world.settings, name, ToolsPage(world.page).catalog)


@given("no web search credential is configured")
@FRESH_CONSOLE
def step_no_web_search_credential(context: Context) -> None:
    """The console holds no web search credential (a fresh console of the suite's own)."""
    names = web_search_credential_names(context.world)
    assert not names, f"the console holds the web search credentials {names}: run on a fresh console"


@given("a web search credential named {string} without a base URL has been added via API")
def step_credential_without_url(context: Context, label: str) -> None:
    """Add a web search credential with no base URL (one its check refuses); run-unique name."""
    world: World = context.world
    name = world.name(label)
    world.agent_builder.providers.credential_names[label] = name
    add_web_search_credential(world, name, None)


@when("I check the credential {string}")
def step_check_credential(context: Context, label: str) -> None:
    """Press the credential's Check button on the tool settings page."""
    world: World = context.world
    ToolsPage(world.page).check_credential(world.agent_builder.providers.credential_names[label])


@step("the console holds the next credential check")
def step_hold_credential_check(context: Context) -> None:
    """Hold the page's next credential check open ("the held credential check")."""
    world: World = context.world
    world.held["credential check"] = ToolsPage(world.page).hold_next_check(world.settings.timeout_ms)


@then("the credential {string} cannot be checked again while its check runs")
def step_check_disabled(context: Context, label: str) -> None:
    """The credential's Check button says "Checking…" and is disabled: no second check starts."""
    world: World = context.world
    button = ToolsPage(world.page).check_button(world.agent_builder.providers.credential_names[label])
    expect(button).to_have_text("Checking…")
    expect(button).to_be_disabled()


@then("the credential {string} check reads {string}")
def step_credential_check_reads(context: Context, label: str, text: str) -> None:
    """The credential's Check cell reads exactly `text` ("Not checked", "Valid", "Invalid: ...")."""
    world: World = context.world
    name = world.agent_builder.providers.credential_names[label]
    expect(ToolsPage(world.page).credential_cell(name, text)).to_be_visible()


@then("the tool catalog shows these credential states:")
def step_catalog_states(context: Context) -> None:
    """Each catalog entry's badge reads exactly the table's state in its colour, for every tool and no other.

    `colour` is a name of the page's palette: `danger`, `warning`, `success`, `muted` (support/browser/tone.py).
    """
    tools = ToolsPage(context.world.page)
    table = data_table(context)
    assert table.headings == ["tool", "state", "colour"], "the table's columns are tool, state and colour"
    rows = table.rows
    for row in rows:
        expect_tone(tools.catalog_state(row["tool"], row["state"]), row["colour"])
    expect(tools.catalog_entries).to_have_count(len(rows))


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
