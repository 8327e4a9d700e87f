"""Version history on the configure page: publishing with a note, the list of versions, the
read-only view of one, and restoring it to the draft."""

import re

from behave import given, then, when
from behave.runner import Context
from playwright.sync_api import expect

from support.api_setup.agents import saved_agent
from support.api_setup.versions import publish_with_note, restore_version
from support.step_helpers import data_table
from support.ui.publish_bar import PublishBar
from support.ui.version_history import VersionDialog, VersionHistory
from support.world import World


def _history(world: World) -> VersionHistory:
    return VersionHistory(world.page)


@when("I publish the agent with the note {string}")
def step_publish_with_note(context: Context, note: str) -> None:
    """Publish from the publish bar, with the release note."""
    PublishBar(context.world.page).publish_with_note(note)


@given("the agent has been published via API with the note {string}")
def step_published_with_note(context: Context, note: str) -> None:
    """Publish the agent through the API with the release note (setup)."""
    publish_with_note(context.world, note)


@given("version {int} has been restored to the draft via API")
def step_restored_via_api(context: Context, version: int) -> None:
    """Restore the version into the draft through the API, as another client would (setup)."""
    restore_version(context.world, version)


@then("the version history lists:")
def step_history_lists(context: Context) -> None:
    """The version history lists exactly these versions and notes, in order."""
    versions = _history(context.world).versions
    expected = [(row["version"], row["note"]) for row in data_table(context)]
    expect(versions).to_have_count(len(expected))
    for entry, (version, note) in zip(versions.all(), expected, strict=True):
        expect(entry).to_contain_text(f"{version} {note}")


@then("the version history shows version {int} with no note and its time, both as secondary text")
def step_entry_secondary_text(context: Context, version: int) -> None:
    """In the version's entry, "No note" and the time share the muted colour, unlike the number."""
    colors = _history(context.world).entry_colors(version)
    assert colors["time"] == colors["no note"] != colors["number"], colors


@when("I open version {int} in the version history")
def step_open_version(context: Context, version: int) -> None:
    """Open the version from the version history."""
    _history(context.world).open(version)


def _dialog(world: World, version: int) -> VersionDialog:
    return _history(world).dialog(version)


@then("version {int} shows the instructions {string} read-only")
def step_version_read_only(context: Context, version: int, text: str) -> None:
    """The version's dialog shows its instructions, and they cannot be edited."""
    instructions = _dialog(context.world, version).instructions
    expect(instructions).to_have_value(text)
    expect(instructions).not_to_be_editable()


@then("version {int} says when it was published, with no note")
def step_version_without_note(context: Context, version: int) -> None:
    """The version's dialog says "Published <time>" and nothing after it (no separator, no note)."""
    expect(_dialog(context.world, version).published).to_have_text(re.compile(r"^Published [^·]+$"))


@then("version {int} shows read-only:")
def step_version_details(context: Context, version: int) -> None:
    """The version's dialog lists exactly these details (`detail`, `value`), in this order.

    A value "the stable model" stands for the seeded stable model's name."""
    world: World = context.world
    dialog = _dialog(world, version)
    rows = data_table(context)
    stable = world.agent_builder.seeded.stable_model
    shown = {"the stable model": stable.name} if stable else {}
    expect(dialog.detail_terms).to_have_text([row["detail"] for row in rows])
    expect(dialog.detail_values).to_have_text([shown.get(row["value"], row["value"]) for row in rows])


@when("I restore version {int} to the draft")
def step_restore(context: Context, version: int) -> None:
    """Restore the open version into the draft, and wait for its dialog to close."""
    dialog = _dialog(context.world, version)
    dialog.restore()
    expect(dialog.root).to_be_hidden()


@then("the agent's published version is still {int} with the instructions {string}")
def step_published_unchanged(context: Context, version: int, text: str) -> None:
    """The published version (console API) is still this one, with these instructions."""
    published = saved_agent(context.world).published
    assert published is not None, "the agent has no published version"
    assert (published.version, published.config.instructions) == (version, text), published
