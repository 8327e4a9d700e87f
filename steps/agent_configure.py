"""The configure page: draft fields, tools, autosave, persistence, and the agent's tabs.

The model picker, the knowledge section and the fixture agents have modules of their own
(`agent_model`, `agent_knowledge`, `seeded_agents`).
"""

import re

from behave import given, step, then, when
from behave.runner import Context
from playwright.sync_api import expect

from support.api_setup.agents import (
    BASIC_INSTRUCTIONS,
    DRAFT_FIELDS,
    current_agent,
    draft_as_read,
    enabled_tool_labels,
    saved_agent,
    wait_for_draft,
)
from support.step_helpers import data_table
from support.ui.agent_header import AgentHeader
from support.ui.configure import ConfigurePage
from support.ui.publish_bar import PublishBar
from support.world import World

_PARAMETERS = {"temperature": "temperature", "max tokens": "max_tokens"}


def _configure(world: World) -> ConfigurePage:
    return ConfigurePage(world.page)


@when("I open the agent's configure page")
def step_open_configure(context: Context) -> None:
    """Open the current agent's configure page and wait for it to load."""
    world: World = context.world
    world.open(ConfigurePage.path(current_agent(world).id))


@then("I see the agent's configure page")
def step_see_configure(context: Context) -> None:
    """The configure page of the current agent is shown."""
    world: World = context.world
    agent = current_agent(world)
    expect(world.page).to_have_url(ConfigurePage.url(agent.id))
    expect(AgentHeader(world.page).title(agent.name)).to_be_visible()


@when("I switch to the {string} tab")
def step_switch_tab(context: Context, tab: str) -> None:
    """Switch the configure page to a tab (Build, Preview)."""
    AgentHeader(context.world.page).tab(tab).click()


@then("I see the configure sections:")
def step_see_sections(context: Context) -> None:
    """The configure page shows each section of the table."""
    configure = _configure(context.world)
    for row in data_table(context):
        expect(configure.section(row["section"])).to_be_visible()


@then("the instructions field shows the agent's instructions")
def step_instructions_default(context: Context) -> None:
    """The instructions field shows what the agent was created with."""
    expect(_configure(context.world).instructions).to_have_value(BASIC_INSTRUCTIONS)


@when("I replace the instructions with {string}")
def step_replace_instructions(context: Context, text: str) -> None:
    """Replace the instructions field's text (autosaved)."""
    _configure(context.world).instructions.fill(text)


@when("I replace the instructions with only whitespace")
def step_blank_instructions(context: Context) -> None:
    """Replace the instructions with spaces, a tab and a newline: empty to a reader (autosaved)."""
    _configure(context.world).instructions.fill("  \t\n  ")


@then("the instructions field shows {string}")
def step_instructions_show(context: Context, text: str) -> None:
    """The instructions field shows exactly the text."""
    expect(_configure(context.world).instructions).to_have_value(text)


@then("the configuration should be saved automatically")
def step_saved_automatically(context: Context) -> None:
    """The one autosave assertion: the publish bar's visible saved state, nothing else."""
    world: World = context.world
    PublishBar(world.page).wait_for_save_state("Saved", world.settings.timeout_ms)


@given("the console will refuse the next draft save")
def step_refuse_next_save(context: Context) -> None:
    """Make the configure page's next draft save fail (the page object drops that request)."""
    _configure(context.world).drop_next_draft_save()


@given("the browser will lose the configure page's request for the agent's variables")
def step_lose_variable_list(context: Context) -> None:
    """Make the variable list the configure page asks for as it opens fail, as a dropped connection would."""
    _configure(context.world).drop_next_variable_list()


@given("the browser will lose the agent page's request for the agent")
def step_lose_agent(context: Context) -> None:
    """Make the agent page's first request, for the agent itself, fail as a dropped connection would."""
    AgentHeader(context.world.page).drop_next_agent_request()


@then("the agent page is titled {string} and says {string}")
def step_agent_page_failed(context: Context, title: str, reason: str) -> None:
    """In place of the agent's name and draft: what went wrong, as a title and an alert."""
    header = AgentHeader(context.world.page)
    expect(header.title(title)).to_be_visible()
    expect(header.says_it_could_not_load(reason)).to_have_text(reason)


@then("the configure page says it could not load the configuration: {string}")
def step_configure_load_error(context: Context, reason: str) -> None:
    """The page's alert names what failed; the rest of the page stays usable."""
    expect(_configure(context.world).load_error).to_have_text(f"Could not load the configuration: {reason}")


@step("the console holds the next draft save")
def step_hold_next_save(context: Context) -> None:
    """Hold the configure page's next draft save open ("the held draft save"), to look meanwhile."""
    world: World = context.world
    world.held["draft save"] = _configure(world).hold_next_draft_save(world.settings.timeout_ms)


@when("the autosave delay does not run out by itself")
def step_stop_autosave_delay(context: Context) -> None:
    """Stop the page's clock: an edit is saved only when the page saves it on purpose (Publish)."""
    _configure(context.world).stop_autosave_delay()


@when("the autosave delay passes")
def step_autosave_delay_passes(context: Context) -> None:
    """Let the page's save delay after the last edit run out now (needs a held draft save first)."""
    _configure(context.world).let_autosave_delay_pass()


@when("I retry the save")
def step_retry_save(context: Context) -> None:
    """Click Retry on the publish bar after a failed save."""
    PublishBar(context.world.page).retry()


@then("the agent's draft instructions are {string}")
def step_draft_instructions_are(context: Context, text: str) -> None:
    """The agent's draft, read through the console API, has these instructions."""
    draft = saved_agent(context.world).draft
    assert draft.config.instructions == text, f"draft instructions are {draft.config.instructions!r}"


@then("the agent's draft instructions become {string}")
def step_draft_instructions_become(context: Context, text: str) -> None:
    """The draft's instructions (console API) become the text, polled until they do."""
    world: World = context.world
    wait_for_draft(
        world,
        current_agent(world).id,
        lambda agent: agent.draft.config.instructions == text,
        f"the instructions {text!r}",
    )


@when("I replace the opening statement with {string}")
def step_replace_opening(context: Context, text: str) -> None:
    """Replace the opening statement (autosaved)."""
    _configure(context.world).opening_statement.fill(text)


@then("the agent's draft opening statement becomes {string}")
def step_draft_opening_becomes(context: Context, text: str) -> None:
    """The draft's opening statement (console API) becomes the text, polled until it does."""
    world: World = context.world
    wait_for_draft(
        world,
        current_agent(world).id,
        lambda agent: agent.draft.config.opening_statement == text,
        f"the opening statement {text!r}",
    )


@then("the opening statement field shows {string}")
def step_opening_shows(context: Context, text: str) -> None:
    """The opening statement field shows exactly the text."""
    expect(_configure(context.world).opening_statement).to_have_value(text)


@when("I add the suggested question {string}")
def step_add_question(context: Context, text: str) -> None:
    """Add one suggested question (autosaved)."""
    _configure(context.world).add_suggested_question(text)


@when("I add the suggested questions {strings}")
def step_add_questions(context: Context, questions: list[str]) -> None:
    """Add several suggested questions, written "A", "B" and "C"."""
    configure = _configure(context.world)
    for text in questions:
        configure.add_suggested_question(text)


@then("the suggested questions are {strings}")
def step_questions_are(context: Context, questions: list[str]) -> None:
    """The suggested questions shown are exactly these, in order."""
    fields = _configure(context.world).suggested_questions
    expect(fields).to_have_count(len(questions))
    for index, text in enumerate(questions):
        expect(fields.nth(index)).to_have_value(text)


@then("I cannot add another suggested question")
def step_cannot_add_question(context: Context) -> None:
    """The page offers no way to add another suggested question (the limit)."""
    configure = _configure(context.world)
    expect(configure.add_question).to_be_disabled()
    expect(configure.question_limit_note).to_be_visible()


@then("the agent's draft suggests {strings}")
def step_draft_questions_are(context: Context, questions: list[str]) -> None:
    """The agent's draft (console API) has exactly these suggested questions, in this order."""
    saved = saved_agent(context.world).draft.config.suggested_questions
    assert saved == questions, f"the draft suggests {saved!r}"


@then("the agent's draft is exactly:")
def step_draft_is_exactly(context: Context) -> None:
    """Every field of the agent's draft (console API) is as the table says, nothing else.

    The table names each field once (`field`, `value`): instructions, model, temperature, max
    tokens, opening statement, suggested questions, enabled tools, datasets, top k, score
    threshold. Lists are joined by " / ", an empty cell is nothing; the model "the stable model",
    datasets "the ready knowledge dataset", "the dataset" (the scenario's), tools by label (A to Z)."""
    world: World = context.world
    expected = {row["field"]: row["value"] for row in data_table(context)}
    missing = [name for name in DRAFT_FIELDS if name not in expected]
    unknown = sorted(set(expected) - set(DRAFT_FIELDS))
    assert not missing and not unknown, (
        f"the table must name every field of the draft once: missing {missing}, unknown {unknown}"
    )
    saved = draft_as_read(world, saved_agent(world))
    wrong = {name: saved[name] for name in DRAFT_FIELDS if saved[name] != expected[name]}
    assert not wrong, f"the draft differs from the table in {wrong!r} (the whole draft: {saved!r})"


@then("the agent's enabled tools are exactly:")
def step_enabled_tools_exactly(context: Context) -> None:
    """The agent's draft (console API) enables exactly the table's tools (by label), no other."""
    world: World = context.world
    expected = sorted(row["tool"] for row in data_table(context))
    enabled = sorted(enabled_tool_labels(world, saved_agent(world)))
    assert enabled == expected, f"the draft enables {enabled}, not {expected}"


@then("the tools switched on are exactly:")
def step_tools_switched_on(context: Context) -> None:
    """The configure page's tool switches that are on are exactly the table's tools (by label)."""
    configure = _configure(context.world)
    expected = [row["tool"] for row in data_table(context)]
    for label in expected:
        expect(configure.switched_on_tool(label)).to_be_visible()
    expect(configure.switched_on_tools).to_have_count(len(expected))


@when("I enable the tool {string}")
def step_enable_tool(context: Context, label: str) -> None:
    """Switch a tool on in the configure page."""
    _configure(context.world).tool(label).check()


@when("I disable the tool {string}")
def step_disable_tool(context: Context, label: str) -> None:
    """Switch a tool off in the configure page."""
    _configure(context.world).tool(label).uncheck()


@then("the tool {string} is enabled")
def step_tool_enabled(context: Context, label: str) -> None:
    """The tool's switch is on."""
    expect(_configure(context.world).tool(label)).to_be_checked()


@then("the tool {string} is disabled")
def step_tool_disabled(context: Context, label: str) -> None:
    """The tool's switch is off."""
    expect(_configure(context.world).tool(label)).not_to_be_checked()


@then("no tool is switched on")
def step_no_tool_on(context: Context) -> None:
    """Every tool switch on the configure page is off."""
    expect(_configure(context.world).switched_on_tools).to_have_count(0)


@when("I set the {string} field to {string}")
def step_set_field(context: Context, label: str, value: str) -> None:
    """Fill an advanced field (temperature, max tokens) by its label."""
    _configure(context.world).field(label).fill(value)


@when("I type {string} into the {string} field and leave it")
def step_type_and_leave(context: Context, text: str, label: str) -> None:
    """Type into an advanced field key by key (an unfinished number too), then leave the field."""
    _configure(context.world).type_and_leave(label, text)


@then("the {string} field shows the error {string}")
def step_field_error(context: Context, label: str, error: str) -> None:
    """The field shows the validation error next to it."""
    field = _configure(context.world).field(label)
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(field).to_have_accessible_description(re.compile(re.escape(error)))


@then("the {string} field shows {string}")
def step_field_shows(context: Context, label: str, value: str) -> None:
    """The field shows exactly the value."""
    expect(_configure(context.world).field(label)).to_have_value(value)


@then("the agent's draft {model_parameter} is now {float}")
@then("the agent's draft {model_parameter} is still {float}")
def step_parameter_is(context: Context, parameter: str, value: float) -> None:
    """The draft's model parameter (console API) has this value: the new one, or its earlier one."""
    parameters = saved_agent(context.world).draft.config.parameters
    saved = getattr(parameters, _PARAMETERS[parameter])
    assert float(saved) == value, f"the draft's {parameter} is {saved}"
