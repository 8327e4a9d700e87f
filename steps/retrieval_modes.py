"""Knowledge retrieval modes: the agent's knowledge set via API, the Knowledge section's
"Retrieval mode" and attached datasets, what the preview says applies, the sources a reply's
retrieval cards cite (preview and web app), and the agent's knowledge as saved."""

from behave import given, then, when
from behave.runner import Context
from playwright.sync_api import expect

from support.api_setup.retrieval import (
    KNOWLEDGE_FIELDS,
    attached_dataset_name,
    knowledge_as_read,
    mode_option,
    set_knowledge,
)
from support.step_helpers import LONG_WAIT_MS, data_table, need
from support.tags import WEB_APP_CHAT
from support.ui.chat_pane import ChatPane
from support.ui.preview import PreviewPane
from support.ui.retrieval import KnowledgeRetrieval, cards, cited_sources
from support.ui.web_app import WebAppPage
from support.world import World


def _retrieval(world: World) -> KnowledgeRetrieval:
    return KnowledgeRetrieval(world.page)


def _fields(context: Context) -> dict[str, str]:
    return {row["field"]: row["value"] for row in data_table(context)}


def _cites_exactly(context: Context, pane: ChatPane, card: str) -> None:
    expected = [row["source"] for row in data_table(context)]
    expect(cited_sources(pane, card)).to_have_text(expected, timeout=LONG_WAIT_MS)


@given("the agent's knowledge has been set via API:")
def step_set_knowledge(context: Context) -> None:
    """Save the agent's knowledge settings through the API (setup): `field`/`value` rows.

    Fields: datasets (" / "-separated: "the ready knowledge dataset", "the dual retrieval agent's
    datasets", or a label of the scenario's own, created empty), retrieval mode ("when the agent
    decides" or "before every message"), top k, score threshold (empty: none). Left out: default."""
    set_knowledge(context.world, _fields(context))


@when("I choose the retrieval mode {string}")
def step_choose_mode(context: Context, mode: str) -> None:
    """Choose "when the agent decides" or "before every message" in the Knowledge section."""
    _retrieval(context.world).choose_mode(mode_option(mode))


@when("I remove the attached dataset {string}")
def step_remove_dataset(context: Context, label: str) -> None:
    """Remove the attached dataset of that label (or seeded name) in the Knowledge section."""
    world: World = context.world
    _retrieval(world).remove_dataset(attached_dataset_name(world, label))


@when("I open the dual retrieval agent's web app")
def step_open_dual_web_app(context: Context) -> None:
    """Open the seeded dual-retrieval agent's web app (it is published with the web app on)."""
    world: World = context.world
    agent = need(
        world.agent_builder.seeded.agents.get("dual-retrieval"),
        "Add 'the dual retrieval agent is available'.",
    )
    world.page.goto(need(agent.access.web_app_url, "the dual retrieval agent has no web app: run make seed"))


@then("the retrieval mode shows {string}")
def step_mode_shows(context: Context, mode: str) -> None:
    """The Knowledge section's "Retrieval mode" shows that mode chosen."""
    expect(_retrieval(context.world).chosen_mode).to_have_text(mode_option(mode))


@then("the knowledge section lists exactly the datasets:")
def step_lists_exactly(context: Context) -> None:
    """The Knowledge section lists exactly the table's datasets, in order, on the page as it is.

    `dataset`: a label of the scenario's own, or "the ready knowledge dataset"."""
    world: World = context.world
    expected = [attached_dataset_name(world, row["dataset"]) for row in data_table(context)]
    expect(_retrieval(world).attached_names).to_have_text(expected)


@then("the agent's knowledge is exactly:")
def step_knowledge_exactly(context: Context) -> None:
    """Every knowledge setting of the agent's draft (console API) is as the table says."""
    world: World = context.world
    expected = _fields(context)
    assert sorted(expected) == sorted(KNOWLEDGE_FIELDS), f"name each of {KNOWLEDGE_FIELDS} once"
    saved = knowledge_as_read(world)
    assert saved == expected, f"the agent's knowledge is {saved!r}, not {expected!r}"


@then("the preview's knowledge line says {string}")
def step_preview_says(context: Context, text: str) -> None:
    """The preview's line on knowledge retrieval says exactly that, on the page as it is."""
    expect(_retrieval(context.world).preview_line).to_have_text(text)


@then("the preview shows no knowledge line")
def step_preview_silent(context: Context) -> None:
    """The preview shows no line on knowledge retrieval (the draft has no dataset)."""
    expect(_retrieval(context.world).preview_line).to_be_hidden()


@then("the preview's {string} card cites exactly:")
def step_preview_cites_exactly(context: Context, card: str) -> None:
    """The preview's last card of that name lists exactly the table's `source`s, in order."""
    _cites_exactly(context, PreviewPane(context.world.page), card)


@then("the web app's {string} card cites exactly:")
@WEB_APP_CHAT
def step_web_app_cites_exactly(context: Context, card: str) -> None:
    """The web app's last card of that name lists exactly the table's `source`s, in order."""
    _cites_exactly(context, WebAppPage(context.world.page), card)


@then("the preview has no {string} card")
def step_preview_no_card(context: Context, card: str) -> None:
    """The preview conversation has no card of that name (assert the reply first: a positive sign)."""
    expect(cards(PreviewPane(context.world.page), card)).to_have_count(0)
