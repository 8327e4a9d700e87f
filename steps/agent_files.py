"""Agent files on the configure page, and uploading one through the API."""

import re

from behave import given, step, then, when
from behave.runner import Context
from playwright.sync_api import expect

from support.api_setup.files import saved_file_names, upload_agent_file, upload_numbered_files
from support.step_helpers import data_table
from support.ui.agent_files import AgentFilesSection
from support.ui.nav_bar import NavBar
from support.world import World

_MIME = {".txt": "text/plain", ".md": "text/markdown", ".exe": "application/octet-stream"}


def _files(world: World) -> AgentFilesSection:
    return AgentFilesSection(world.page)


def _upload(world: World, name: str, content: bytes) -> None:
    _files(world).upload(name, _MIME.get(name[name.rfind(".") :], "application/octet-stream"), content)


@when("I upload the agent file {string} containing {string}")
def step_upload_file(context: Context, name: str, text: str) -> None:
    """Upload a small text file to the agent in the page."""
    _upload(context.world, name, text.encode())


@when("I upload an agent file {string} of {int} MiB")
def step_upload_large_file(context: Context, name: str, size: int) -> None:
    """Upload a file of the given size in the page (to hit the size limit)."""
    _upload(context.world, name, b"x" * (size * 1024 * 1024))


@when("I upload an agent file {string} of {int} MiB plus {int} byte")
def step_upload_file_over(context: Context, name: str, size: int, extra: int) -> None:
    """Upload a file a few bytes over a size in the page (a limit's boundary)."""
    _upload(context.world, name, b"x" * (size * 1024 * 1024 + extra))


@given("the agent has the file {string} uploaded via API")
def step_file_via_api(context: Context, name: str) -> None:
    """Upload a file to the agent through the console API (setup, tracked for cleanup)."""
    upload_agent_file(context.world, name, b"Uploaded by the E2E suite.\n")


@then("the agent files list {string}")
def step_files_list(context: Context, name: str) -> None:
    """The agent's file list shows the file."""
    expect(_files(context.world).file(name)).to_be_visible()


@then("the agent files list {string} once")
def step_files_list_once(context: Context, name: str) -> None:
    """The agent's file list shows exactly one file of that name."""
    expect(_files(context.world).file(name)).to_have_count(1)


@then("the agent files list {string} twice")
def step_files_list_twice(context: Context, name: str) -> None:
    """The agent's file list shows exactly two files of that name (two uploads, both kept)."""
    expect(_files(context.world).file(name)).to_have_count(2)


@then("the agent files do not list {string}")
def step_files_lack(context: Context, name: str) -> None:
    """The agent's file list does not show the file."""
    expect(_files(context.world).file(name)).to_have_count(0)


@then("I see the file error {string}")
def step_file_error(context: Context, text: str) -> None:
    """The file section shows the error."""
    expect(_files(context.world).error).to_contain_text(re.compile(re.escape(text), re.IGNORECASE))


@when("I delete the agent file {string}")
def step_delete_file(context: Context, name: str) -> None:
    """Delete the file in the page."""
    _files(context.world).delete(name)


@when("I delete one of the agent files {string}")
def step_delete_one_file(context: Context, name: str) -> None:
    """Delete the first of the files listed under that name, in the page."""
    _files(context.world).delete(name, first=True)


@when("I upload an empty agent file {string}")
def step_upload_empty_file(context: Context, name: str) -> None:
    """Upload a file of zero bytes in the page."""
    _upload(context.world, name, b"")


@given("the agent has {int} files uploaded via API")
def step_numbered_files_via_api(context: Context, count: int) -> None:
    """Upload that many small files (`file-01.txt`, ...) through the console API (setup)."""
    upload_numbered_files(context.world, count)


@then("the agent files are exactly:")
def step_files_exactly(context: Context) -> None:
    """The page lists exactly the table's files, in its order (an empty table: none)."""
    rows = _files(context.world).rows
    names = [row["name"] for row in data_table(context).rows]
    for index, name in enumerate(names):
        expect(_files(context.world).row_named(index, name)).to_be_visible()
    expect(rows).to_have_count(len(names))


@then("the console holds exactly these agent files:")
def step_saved_files_exactly(context: Context) -> None:
    """The console API lists exactly the table's files for the agent, in its order."""
    expected = [row["name"] for row in data_table(context).rows]
    saved = saved_file_names(context.world)
    assert saved == expected, f"the console holds the files {saved}, not {expected}"


@then("the file count reads {string}")
def step_file_count(context: Context, text: str) -> None:
    """The Files card's count of files out of the limit reads exactly `text`."""
    expect(_files(context.world).count_note).to_have_text(text)


@then("the file upload field is disabled")
def step_upload_disabled(context: Context) -> None:
    """The Upload file field cannot be used."""
    expect(_files(context.world).upload_field).to_be_disabled()


@then("the file upload field is enabled")
def step_upload_enabled(context: Context) -> None:
    """The Upload file field can be used."""
    expect(_files(context.world).upload_field).to_be_enabled()


@then("the file status reads {string}")
def step_file_status(context: Context, text: str) -> None:
    """The Files card's status line (uploads in progress, the last one settled) reads exactly `text`."""
    expect(_files(context.world).status).to_have_text(text)


@then("I see exactly the file error {string}")
def step_file_error_exactly(context: Context, text: str) -> None:
    """The Files card's alert reads exactly `text`."""
    expect(_files(context.world).error).to_have_text(text)


@step("the console holds the next file upload")
def step_hold_next_upload(context: Context) -> None:
    """Hold the configure page's next file upload open ("the held file upload"); the page is open."""
    world: World = context.world
    world.held["file upload"] = _files(world).hold_next_upload(world.settings.timeout_ms)


@when("I go to the agent roster through the navigation")
def step_follow_agents_link(context: Context) -> None:
    """Click "Agents" in the console's main navigation (the page may finish its work first)."""
    NavBar(context.world.page).follow("Agents")


@then("the console holds {int} agent files without {string}")
def step_saved_count_without(context: Context, count: int, name: str) -> None:
    """The console API lists that many files for the agent, none of them called `name`."""
    saved = saved_file_names(context.world)
    assert len(saved) == count and name not in saved, f"the console holds {len(saved)} files: {saved}"
