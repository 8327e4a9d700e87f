"""The configure page's tools as a user sees them: each switch, what the tool needs (its state
line), and the tool search with its empty state."""

from behave import then, when
from behave.runner import Context
from playwright.sync_api import expect

from support.step_helpers import data_table
from support.ui.tool_list import ToolList
from support.world import World

# The `switch` column: whether the switch is on, and whether the user can change it.
_SWITCHES = {"on": (True, True), "off": (False, True), "off, disabled": (False, False)}


@then("the tools are exactly:")
def step_tools_exactly(context: Context) -> None:
    """The Tools card shows exactly the table's tools in order, each switch and state line as written.

    `switch`: on, off, or "off, disabled" (it cannot be switched on); `state`: word for word.
    """
    world: World = context.world
    tools = ToolList(world.page)
    rows = data_table(context).rows
    for index, row in enumerate(rows):
        switch = tools.switch(row["tool"])
        checked, enabled = _SWITCHES[row["switch"]]
        expect(tools.switches.nth(index)).to_have_accessible_name(row["tool"])
        expect(switch).to_be_checked(checked=checked)
        expect(switch).to_be_enabled(enabled=enabled)
        expect(tools.state(row["tool"], row["state"])).to_be_visible()
    expect(tools.switches).to_have_count(len(rows))


@when("I search the tools for {string}")
def step_search_tools(context: Context, text: str) -> None:
    """Type into the Tools card's search field (an empty text clears it)."""
    ToolList(context.world.page).search(text)


@then("the tool search says {string}")
def step_tool_search_empty(context: Context, text: str) -> None:
    """The Tools card's empty state reads exactly `text`, and no tool is listed."""
    tools = ToolList(context.world.page)
    expect(tools.empty_state).to_have_text(text)
    expect(tools.switches).to_have_count(0)


@then("the tools listed are exactly:")
def step_tools_listed(context: Context) -> None:
    """The Tools card lists exactly the table's tools (by label), in its order, and no empty state."""
    tools = ToolList(context.world.page)
    labels = [row["tool"] for row in data_table(context).rows]
    for index, label in enumerate(labels):
        expect(tools.switches.nth(index)).to_have_accessible_name(label)
    expect(tools.switches).to_have_count(len(labels))
    expect(tools.empty_state).to_have_count(0)


@then("the tool {string} says {string}")
def step_tool_says(context: Context, label: str, text: str) -> None:
    """The tool's state line reads exactly `text`."""
    expect(ToolList(context.world.page).state(label, text)).to_be_visible()


@then("the tool {string} cannot be switched on")
def step_tool_locked_off(context: Context, label: str) -> None:
    """The tool's switch is off and disabled."""
    switch = ToolList(context.world.page).switch(label)
    expect(switch).not_to_be_checked()
    expect(switch).to_be_disabled()
