"""Agent files on the configure page, and uploading one through the API."""

import re

from behave import given, then, when
from behave.runner import Context
from playwright.sync_api import expect

from support.api_setup.files import upload_agent_file
from support.ui.agent_files import AgentFilesSection
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
