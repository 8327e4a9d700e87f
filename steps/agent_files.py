"""Agent files on the configure page."""

import re

from behave import given, then, when
from behave.runner import Context
from playwright.sync_api import expect

from support.api_setup.files import upload_agent_file
from support.ui.console_pages import ConfigurePage
from support.world import World

_MIME = {".txt": "text/plain", ".md": "text/markdown", ".exe": "application/octet-stream"}


def _upload(world: World, name: str, content: bytes) -> None:
    mime = _MIME.get(name[name.rfind(".") :], "application/octet-stream")
    ConfigurePage(world.page).upload_file.set_input_files(
        files=[{"name": name, "mimeType": mime, "buffer": content}]
    )


@when('I upload the agent file "{name}" containing "{text}"')
def step_upload_file(context: Context, name: str, text: str) -> None:
    _upload(context.world, name, text.encode())


@when('I upload an agent file "{name}" of {size:d} MiB')
def step_upload_large_file(context: Context, name: str, size: int) -> None:
    _upload(context.world, name, b"x" * (size * 1024 * 1024))


@given('the agent has the file "{name}" uploaded via API')
def step_file_via_api(context: Context, name: str) -> None:
    upload_agent_file(context.world, name, b"Uploaded by the E2E suite.\n")


@then('the agent files list "{name}"')
def step_files_list(context: Context, name: str) -> None:
    world: World = context.world
    expect(ConfigurePage(world.page).files_section.get_by_text(name, exact=True)).to_be_visible()


@then('the agent files do not list "{name}"')
def step_files_lack(context: Context, name: str) -> None:
    world: World = context.world
    expect(ConfigurePage(world.page).files_section.get_by_text(name, exact=True)).to_have_count(0)


@then('I see the file error "{text}"')
def step_file_error(context: Context, text: str) -> None:
    world: World = context.world
    alert = ConfigurePage(world.page).files_section.get_by_role("alert")
    expect(alert).to_contain_text(re.compile(re.escape(text), re.IGNORECASE))


@when('I delete the agent file "{name}"')
def step_delete_file(context: Context, name: str) -> None:
    world: World = context.world
    ConfigurePage(world.page).files_section.get_by_role("button", name=f"Delete {name}").click()
