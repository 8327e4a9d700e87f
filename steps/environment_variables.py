"""Environment variables in the configure page's advanced settings: adding, editing, deleting,
secrets shown masked, and importing a .env file."""

from behave import given, step, then, when
from behave.runner import Context
from playwright.sync_api import expect

from support.api_setup.env_vars import add_env_var, env_vars
from support.step_helpers import data_table, doc_string
from support.ui.env_vars import EnvVarsSection
from support.world import World

# Invalid UTF-8 with NUL bytes: what an image or an archive looks like to a text reader.
NOT_TEXT = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe"


def _section(world: World) -> EnvVarsSection:
    return EnvVarsSection(world.page)


@given("the agent has the variable {variable} set to {string} via API")
def step_variable_via_api(context: Context, name: str, value: str) -> None:
    """Add the variable to the agent through the API (setup)."""
    add_env_var(context.world, name, value)


@given("the agent has the secret variable {variable} set to {string} via API")
def step_secret_via_api(context: Context, name: str, value: str) -> None:
    """Add the variable, as a secret, to the agent through the API (setup)."""
    add_env_var(context.world, name, value, secret=True)


@when("I add the variable {variable} with the value {string}")
def step_add_variable(context: Context, name: str, value: str) -> None:
    """Add the variable in the page's variables section."""
    _section(context.world).add(name, value)


@when("I add the secret variable {variable} with the value {string}")
def step_add_secret(context: Context, name: str, value: str) -> None:
    """Add the variable as a secret in the page's variables section."""
    _section(context.world).add(name, value, secret=True)


@when("I try to add a variable named {string}")
def step_try_bad_name(context: Context, name: str) -> None:
    """Try to add a variable of that name in the page (any value)."""
    _section(context.world).add(name, "any value")


@when("I change the variable {variable} to {string}")
def step_edit_variable(context: Context, name: str, value: str) -> None:
    """Change the variable's value in its edit dialog, and save."""
    dialog = _section(context.world).open_edit(name)
    dialog.value.fill(value)
    dialog.save()


@when("I change the variable {variable} to {string} but cancel")
def step_edit_variable_cancelled(context: Context, name: str, value: str) -> None:
    """Type a new value in the variable's edit dialog, then press Cancel instead of saving."""
    dialog = _section(context.world).open_edit(name)
    dialog.value.fill(value)
    dialog.cancel()


@then("no variable dialog is open and the focus is back on the variable {variable}'s Edit button")
def step_dialog_closed_focus_back(context: Context, name: str) -> None:
    """The dialog closed, and the keyboard goes on from the button that opened it."""
    section = _section(context.world)
    expect(section.open_dialogs).to_have_count(0)
    expect(section.edit_button(name)).to_be_focused()


@when("I delete the variable {variable}")
def step_delete_variable(context: Context, name: str) -> None:
    """Delete the variable in the page."""
    _section(context.world).delete(name)


@step("the console holds the next variable deletion")
def step_hold_next_deletion(context: Context) -> None:
    """Hold the configure page's next variable deletion open ("the held variable deletion"); the page is open."""
    world: World = context.world
    world.held["variable deletion"] = _section(world).hold_next_deletion(world.settings.timeout_ms)


@then("the variable {variable} cannot be deleted again while its deletion is under way")
def step_delete_disabled(context: Context, name: str) -> None:
    """The variable's Delete button is disabled: a second click cannot send a second deletion."""
    expect(_section(context.world).delete_button(name)).to_be_disabled()


@when("I import an env file containing:")
def step_import(context: Context) -> None:
    """Import a .env file whose text is the doc string."""
    _section(context.world).import_file(".env", doc_string(context).encode())


@when("I import an env file of {int} variables")
def step_import_many(context: Context, count: int) -> None:
    """Import a .env file setting that many variables, E2E_VAR_001=value-001 and on: the same file each time."""
    text = "".join(f"E2E_VAR_{number:03}=value-{number:03}\n" for number in range(1, count + 1))
    _section(context.world).import_file(".env", text.encode())


@when("I import an env file that is not text")
def step_import_binary(context: Context) -> None:
    """Import a .env file that is binary, not text."""
    _section(context.world).import_file("picture.env", NOT_TEXT)


@then("the variables are listed:")
def step_variables_listed(context: Context) -> None:
    """The section lists exactly these variables, each showing its value."""
    section = _section(context.world)
    expect(section.rows).to_have_count(len(data_table(context).rows))
    for row in data_table(context):
        expect(section.value_of(row["name"])).to_have_text(row["value"])


@then("the variables section lists {int} variables")
def step_variables_counted(context: Context, count: int) -> None:
    """The section lists exactly that many variables, and the console API holds as many."""
    expect(_section(context.world).rows).to_have_count(count)
    assert len(env_vars(context.world)) == count, sorted(env_vars(context.world))


@then("the variable {variable} is not listed")
def step_variable_gone(context: Context, name: str) -> None:
    """The section does not list the variable."""
    expect(_section(context.world).row(name)).to_have_count(0)


@then("the variable {variable} is shown masked as {string}")
def step_variable_masked(context: Context, name: str, masked: str) -> None:
    """The section shows the variable's value masked, marked Secret."""
    expect(_section(context.world).value_of(name)).to_have_text(f"{masked} Secret")


@then("the console API lists {variable} as a secret masked as {string}, without its value")
def step_api_masks_secret(context: Context, name: str, masked: str) -> None:
    """The public contract itself never carries the value: a page could not show what it never got."""
    listed = env_vars(context.world)[name]
    shown = "its value" if listed.value is not None else "no value"  # never the value itself
    assert (listed.secret, listed.masked, listed.value) == (True, masked, None), (
        f"{name} is listed {'as' if listed.secret else 'not as'} a secret, masked as {listed.masked!r}, with {shown}"
    )


@then("the variable dialog says {string}")
def step_dialog_says(context: Context, text: str) -> None:
    """The Add variable dialog shows the field error."""
    expect(_section(context.world).dialog("Add variable").field_error(text)).to_be_visible()


@then("no variable was saved")
def step_nothing_saved(context: Context) -> None:
    """Neither the console API nor the page lists any variable."""
    assert env_vars(context.world) == {}, env_vars(context.world)
    expect(_section(context.world).rows).to_have_count(0)


@then("the import reports {string}")
def step_import_reports(context: Context, text: str) -> None:
    """The section shows the import's report."""
    expect(_section(context.world).says(text)).to_be_visible()


@then("the import lists the skipped lines:")
def step_skipped_lines(context: Context) -> None:
    """The import lists exactly these skipped lines, each with its reason."""
    lines = _section(context.world).skipped_lines
    expected = [f"Line {row['line']}: {row['reason']}" for row in data_table(context)]
    expect(lines).to_have_count(len(expected))
    for line, text in zip(lines.all(), expected, strict=True):
        expect(line).to_contain_text(text)


@then("the variables section shows the error {string}")
def step_section_error(context: Context, text: str) -> None:
    """The variables section shows an error containing the text."""
    expect(_section(context.world).error).to_contain_text(text)
