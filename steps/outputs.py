"""Output variables: the configure page's Output variables card (adding, typing, renaming, its
errors), the references to an output in the instructions, and the draft's outputs."""

import json

from behave import given, then, when
from behave.runner import Context
from playwright.sync_api import expect

from support.api_setup.access import service_api_client
from support.api_setup.agents import saved_agent
from support.api_setup.outputs import OUTPUT_COLUMNS, declare_outputs, outputs_as_read
from support.step_helpers import data_table, doc_string, need
from support.tags import SERVICE_API_CHAT, WEB_APP_CHAT
from support.ui.configure import ConfigurePage
from support.ui.outputs import OutputsCard
from support.ui.web_app import WebAppPage
from support.world import World


def _card(world: World) -> OutputsCard:
    return OutputsCard(world.page)


def _rows(context: Context) -> list[dict[str, str]]:
    table = data_table(context)
    assert tuple(table.headings) == OUTPUT_COLUMNS, f"an outputs table has the columns {OUTPUT_COLUMNS}"
    return [{column: row[column] for column in OUTPUT_COLUMNS} for row in table]


@given("the agent declares the outputs via API:")
def step_declares_outputs(context: Context) -> None:
    """Save the draft with the table's outputs (an object's fields as dotted paths after it) (setup)."""
    declare_outputs(context.world, _rows(context))


@given("the agent declares {int} string outputs via API")
def step_declares_many(context: Context, count: int) -> None:
    """Save the draft with the string outputs `output_1` ... `output_<count>` (setup)."""
    rows = [
        {"output": f"output_{n}", "type": "string", "items": "-", "description": ""}
        for n in range(1, count + 1)
    ]
    declare_outputs(context.world, rows)


@given("the agent's instructions are via API:")
def step_instructions_via_api(context: Context) -> None:
    """Save the draft with the doc string as its instructions, the outputs as they are (setup)."""
    agent = saved_agent(context.world)
    declare_outputs(context.world, outputs_as_read(agent), instructions=doc_string(context))


@when("I add the outputs:")
def step_add_outputs(context: Context) -> None:
    """Add each row of the table with Add output (a dotted path with its object's Add field), in order."""
    card = _card(context.world)
    for row in _rows(context):
        items = "" if row["items"] == "-" else row["items"]
        card.add(row["output"], row["type"], items=items, description=row["description"])


@when("I add an output named {string}")
def step_add_named(context: Context, name: str) -> None:
    """Click Add output and type the name into the new row (a string output)."""
    card = _card(context.world)
    card.add_unnamed()
    card.new_name_field().fill(name)


@when("I rename the output {string} to {string}")
def step_rename(context: Context, path: str, name: str) -> None:
    """Replace the name of the output at this dotted path."""
    _card(context.world).name_field(path).fill(name)


@when("I change the type of the output {string} to {string}")
def step_change_type(context: Context, path: str, kind: str) -> None:
    """Choose another type for the output at this dotted path."""
    _card(context.world).choose_type(path, kind)


@when("I remove the output {string}")
def step_remove(context: Context, path: str) -> None:
    """Click Remove on the output at this dotted path."""
    _card(context.world).remove(path)


@then("the outputs card shows:")
def step_card_shows(context: Context) -> None:
    """The card shows exactly these output rows, in this order, and no error."""
    card = _card(context.world)
    expect(card.error).to_be_hidden()
    assert card.rows_as_read() == _rows(context), card.rows_as_read()


@then("the outputs card says {string}")
def step_card_says(context: Context, message: str) -> None:
    """The card's error says exactly this."""
    expect(_card(context.world).error).to_have_text(message)


@then("the agent's draft outputs are exactly:")
def step_draft_outputs(context: Context) -> None:
    """The saved draft holds exactly these outputs, in this order (the console API)."""
    saved = outputs_as_read(saved_agent(context.world))
    assert saved == _rows(context), saved


@then("the agent's draft declares no outputs")
def step_no_outputs(context: Context) -> None:
    """The saved draft's outputs are an empty list (the console API)."""
    assert saved_agent(context.world).draft.config.outputs == []


@then("the agent's draft instructions are:")
def step_draft_instructions(context: Context) -> None:
    """The saved draft's instructions are exactly the doc string (the console API)."""
    assert saved_agent(context.world).draft.config.instructions == doc_string(context)


@then("the instructions field shows:")
def step_instructions_field(context: Context) -> None:
    """The configure page's Instructions field holds exactly the doc string."""
    expect(ConfigurePage(context.world.page).instructions).to_have_value(doc_string(context))


@then("the agent's draft has the string outputs {string} to {string}")
def step_numbered_outputs(context: Context, first: str, last: str) -> None:
    """The saved draft's outputs are exactly `<stem>_<from>` ... `<stem>_<to>`, strings, in order."""
    stem, _, start = first.rpartition("_")
    _, _, end = last.rpartition("_")
    expected = [
        {"output": f"{stem}_{n}", "type": "string", "items": "-", "description": ""}
        for n in range(int(start), int(end) + 1)
    ]
    assert outputs_as_read(saved_agent(context.world)) == expected


def _json(context: Context) -> object:
    return json.loads(doc_string(context))


@then("the outputs the service API returned are exactly:")
@SERVICE_API_CHAT
def step_service_outputs(context: Context) -> None:
    """The last blocking answer's (or stream's message_end's) outputs are exactly the doc string's JSON."""
    ended = need(context.world.agent_builder.service_api_chat.ended, "no service API answer was returned")
    assert ended.outputs == _json(context), f"the service API returned the outputs {ended.outputs}"


@then("the reply read back by the ids the service API returned holds the outputs:")
@SERVICE_API_CHAT
def step_stored_outputs(context: Context) -> None:
    """The reply the returned ids name, read back through the service API, holds exactly these outputs."""
    world: World = context.world
    ended = need(world.agent_builder.service_api_chat.ended, "no service API answer was returned")
    messages = service_api_client(world).conversation_messages(ended.conversation_id).data
    replies = [message for message in messages if message.id == ended.message_id]
    assert len(replies) == 1, f"the conversation holds {[m.id for m in messages]}, not {ended.message_id}"
    assert replies[0].outputs == _json(context), f"the stored reply holds the outputs {replies[0].outputs}"


@then("the web app's reply is stored as failed with the code {string} and no outputs")
@WEB_APP_CHAT
def step_web_app_failed(context: Context, code: str) -> None:
    """The web app's conversation (this visitor's) ends with a failed reply naming the code, no outputs."""
    body = WebAppPage(context.world.page).stored_messages()
    messages = body["data"] if isinstance(body, dict) else []
    assert messages, "the web app's conversation holds no message"
    last = messages[-1]
    stored = (last["role"], last["status"], (last.get("error") or {}).get("code"), last.get("outputs"))
    assert stored == ("assistant", "failed", code, None), f"the last message is stored as {stored}"
