"""Skills: the configure page's Skills card (upload as a zip or as files, refusals with their
reason, replace, remove, the limit) and the draft's skills as the console API gives them."""

import re

from behave import given, then, when
from behave.runner import Context
from playwright.sync_api import expect

from support.api_setup.skills import (
    add_numbered_skills,
    add_skill,
    listed_skills,
    saved_skills,
    skill_md,
    zipped,
)
from support.step_helpers import data_table
from support.ui.skills import SkillsCard
from support.world import World

REFERENCE = "reference.md"


def _card(world: World) -> SkillsCard:
    return SkillsCard(world.page)


def _files(name: str, description: str) -> dict[str, bytes]:
    return {"SKILL.md": skill_md(name, description), REFERENCE: f"How {name} works.\n".encode()}


@given("the agent has the skill {string} described as {string} via API")
def step_has_skill(context: Context, name: str, description: str) -> None:
    """Upload a skill (its SKILL.md only) to the agent through the console API (setup)."""
    add_skill(context.world, name, description)


@given(
    "the agent has the skill {string} described as {string} with the file {string} containing {string} via API"
)
def step_has_skill_with_file(context: Context, name: str, description: str, path: str, text: str) -> None:
    """Upload a skill (its SKILL.md and one more file) to the agent through the console API (setup)."""
    add_skill(context.world, name, description, {path: f"{text}\n".encode()})


@given("the agent has {int} skills via API")
def step_has_skills(context: Context, count: int) -> None:
    """Upload `skill-01` ... `skill-<count>` through the console API (setup)."""
    add_numbered_skills(context.world, count)


@when("I upload the skill {string} described as {string} as a zip of its folder")
def step_upload_zip(context: Context, name: str, description: str) -> None:
    """Choose one zip holding the folder `<name>/` with SKILL.md and reference.md."""
    _card(context.world).upload({f"{name}.zip": zipped(name, _files(name, description))})


@when("I upload the skill {string} described as {string} as its files")
def step_upload_files(context: Context, name: str, description: str) -> None:
    """Choose SKILL.md and reference.md together in the Upload skill field."""
    _card(context.world).upload(_files(name, description))


@when("I upload a skill with the front matter {string}")
def step_upload_front_matter(context: Context, lines: str) -> None:
    """Choose a lone SKILL.md whose front matter holds these lines (separated by " / ")."""
    front_matter = "\n".join(lines.split(" / "))
    _card(context.world).upload({"SKILL.md": f"---\n{front_matter}\n---\n# A skill\n".encode()})


@when("I upload the skill {string} with the extra file {string}")
def step_upload_with_file(context: Context, name: str, extra: str) -> None:
    """Choose a valid SKILL.md and one more file of that name."""
    _card(context.world).upload({"SKILL.md": skill_md(name, "A skill."), extra: b"MZ extra content"})


@when("I upload the skill {string} with a {int} KiB reference file")
def step_upload_large(context: Context, name: str, size: int) -> None:
    """Choose a valid SKILL.md and a reference.md of `size` KiB."""
    _card(context.world).upload({"SKILL.md": skill_md(name, "A skill."), REFERENCE: b"x" * (size << 10)})


@when("I replace the skill {string} with one described as {string}")
def step_replace(context: Context, name: str, description: str) -> None:
    """Choose a new SKILL.md (same name, this description) and reference.md for the skill's Replace."""
    _card(context.world).replace(name, _files(name, description))


@when("I remove the skill {string}")
def step_remove(context: Context, name: str) -> None:
    """Click the skill's Remove button."""
    _card(context.world).remove(name)


@then("the skills card lists exactly:")
def step_card_lists(context: Context) -> None:
    """The card lists exactly these skills, in order: name, description and file count a row."""
    expected = [
        re.compile(
            rf"^\s*{re.escape(row['name'])}\s+{re.escape(row['description'])}\s*{row['files']}\s*Replace\s*Remove\s*$"
        )
        for row in data_table(context)
    ]
    expect(_card(context.world).rows).to_have_text(expected)


@then("the skills card lists no skills")
def step_card_empty(context: Context) -> None:
    """The card says it has no skills, and lists none."""
    card = _card(context.world)
    expect(card.rows).to_have_count(0)
    expect(card.empty_note).to_be_visible()


@then("the skills card says {string}")
def step_card_status(context: Context, text: str) -> None:
    """The card's status line says exactly this (the last upload, replacement or removal)."""
    expect(_card(context.world).status).to_have_text(text)


@then("the skills card shows the error {string}")
def step_card_error(context: Context, text: str) -> None:
    """The card's alert says exactly this."""
    expect(_card(context.world).error).to_have_text(text)


@then("the skill count says {string}")
def step_count(context: Context, text: str) -> None:
    """The note under the upload field says exactly this."""
    expect(_card(context.world).count_note).to_have_text(text)


@then("the skill upload field is disabled")
def step_upload_disabled(context: Context) -> None:
    """The Upload skill field cannot be used."""
    expect(_card(context.world).upload_field).to_be_disabled()


@then("the skill upload field is enabled")
def step_upload_enabled(context: Context) -> None:
    """The Upload skill field can be used."""
    expect(_card(context.world).upload_field).to_be_enabled()


@then("the agent's draft skills are exactly:")
def step_draft_skills(context: Context) -> None:
    """The saved draft's skills are exactly these rows, in order.

    Read from the console API (the agent, and its skills list): name, description and the files'
    paths joined by " / "."""
    world: World = context.world
    expected = [{key: row[key] for key in row.headings} for row in data_table(context)]
    assert saved_skills(world) == expected, saved_skills(world)
    assert listed_skills(world) == expected, listed_skills(world)


@then("the agent's draft has no skills")
def step_draft_no_skills(context: Context) -> None:
    """The saved draft (console API: the agent and its skills list) has no skill."""
    world: World = context.world
    assert saved_skills(world) == [] and listed_skills(world) == [], saved_skills(world)
