"""Knowledge datasets: documents, indexing status, segments and the retrieval test."""

import re

from behave import given, then, when
from behave.runner import Context
from playwright.sync_api import expect

from support.api.models import Dataset
from support.api_setup.knowledge import (
    create_dataset,
    create_indexed_dataset,
    delete_dataset,
    track_dataset_created_in_page,
)
from support.seeded.specs import dataset_specs
from support.step_helpers import LONG_WAIT_MS, doc_string, need
from support.ui.dataset import DatasetPage
from support.ui.knowledge import KnowledgePage
from support.world import World


def _dataset(world: World) -> Dataset:
    return need(world.agent_builder.knowledge.dataset, "No dataset in this scenario yet: create one first.")


@when("I open the knowledge page")
def step_open_knowledge(context: Context) -> None:
    """Open the knowledge page and wait for it to load."""
    context.world.open(KnowledgePage.PATH)


@when("I create a dataset named {string} described as {string}")
def step_create_described_dataset_ui(context: Context, label: str, description: str) -> None:
    """Create a dataset in the page with a run-unique name and a description."""
    world: World = context.world
    name = world.name(label)
    KnowledgePage(world.page).create_dataset(name, description)
    expect(world.page).to_have_url(DatasetPage.url())
    track_dataset_created_in_page(world, DatasetPage(world.page).dataset_id(), name)


@then("I see the dataset's page")
def step_see_dataset(context: Context) -> None:
    """The dataset's page is shown."""
    world: World = context.world
    dataset = _dataset(world)
    expect(world.page).to_have_url(DatasetPage.url(dataset.id))
    expect(DatasetPage(world.page).title(dataset.name)).to_be_visible()


@then("the knowledge page lists the dataset")
def step_knowledge_lists(context: Context) -> None:
    """The knowledge page lists the current dataset."""
    world: World = context.world
    expect(KnowledgePage(world.page).link(_dataset(world).name)).to_be_visible()


@then("the knowledge page lists the dataset described as {string}")
def step_knowledge_lists_described(context: Context, description: str) -> None:
    """The knowledge page lists the current dataset with its description, and shows no error."""
    world: World = context.world
    page = KnowledgePage(world.page)
    expect(page.row_text(_dataset(world).name, description)).to_be_visible()
    expect(page.alerts).to_have_count(0)


@given("a dataset has been created via API")
def step_dataset_via_api(context: Context) -> None:
    """Create an empty dataset through the API (setup, tracked for cleanup)."""
    create_dataset(context.world)


@given("the dataset has been deleted via API")
def step_dataset_deleted_via_api(context: Context) -> None:
    """Delete the scenario's dataset through the API, as another admin would."""
    delete_dataset(context.world)


@given("a dataset with the document {string} containing {string} has been indexed via API")
def step_indexed_dataset(context: Context, name: str, text: str) -> None:
    """Create a dataset with one document through the API and wait until it is indexed."""
    create_indexed_dataset(context.world, name, text)


@given("a dataset with the document {string} has been indexed via API, containing:")
def step_indexed_dataset_text(context: Context, name: str) -> None:
    """The same, with the document's text in the doc string (paragraphs become segments)."""
    create_indexed_dataset(context.world, name, doc_string(context))


@when("I open the dataset's page")
def step_open_dataset(context: Context) -> None:
    """Open the current dataset's page."""
    world: World = context.world
    world.open(DatasetPage.path(_dataset(world).id))


@when("I upload the document {string} containing:")
def step_upload_document_text(context: Context, name: str) -> None:
    """Upload a document whose text is the step's doc string."""
    DatasetPage(context.world.page).upload(name, doc_string(context))


@when("I upload the document {string} containing {string}")
def step_upload_document(context: Context, name: str, text: str) -> None:
    """Upload a document with the given text in the page."""
    DatasetPage(context.world.page).upload(name, text)


@when("I upload the document {string} containing only non-breaking spaces")
def step_upload_blank_document(context: Context, name: str) -> None:
    """Upload a document that is not empty but has no text, as a text export of a scan can be."""
    DatasetPage(context.world.page).upload(name, "\u00a0\u00a0\n\u00a0")


@then("the document {string} reaches the status {string}")
def step_document_status(context: Context, name: str, status: str) -> None:
    """The document shows the status (indexing is asynchronous: waits for it)."""
    world: World = context.world
    expect(DatasetPage(world.page).document_status(name)).to_have_text(status, timeout=LONG_WAIT_MS)


@then("the document {string} says {string}")
def step_document_says(context: Context, name: str, text: str) -> None:
    """The document's row shows this text, e.g. why indexing it failed."""
    expect(DatasetPage(context.world.page).document_says(name, text)).to_be_visible()


@then("I see the document error {string}")
def step_document_error(context: Context, text: str) -> None:
    """The dataset page shows the document error."""
    error = DatasetPage(context.world.page).error
    expect(error).to_contain_text(re.compile(re.escape(text), re.IGNORECASE))


@when("I test retrieval with the query {string}")
def step_test_retrieval(context: Context, query: str) -> None:
    """Run the retrieval test with the query."""
    DatasetPage(context.world.page).test_retrieval(query)


@when("I test retrieval with the query {string} and top K {int}")
def step_test_retrieval_top_k(context: Context, query: str, top_k: int) -> None:
    """Run the retrieval test with the query, keeping at most `top_k` results."""
    DatasetPage(context.world.page).test_retrieval(query, top_k)


@then("the only retrieval result is {string}")
def step_only_result(context: Context, text: str) -> None:
    """The retrieval test shows exactly one result, and it contains the text."""
    page = DatasetPage(context.world.page)
    expect(page.retrieval_results).to_have_count(1)
    expect(page.retrieval_results).to_contain_text(text)


@then("the retrieval results include {string}")
def step_results_include(context: Context, text: str) -> None:
    """A retrieval result contains the text."""
    expect(DatasetPage(context.world.page).retrieval_result(text)).to_have_count(1)


@then("the retrieval test shows {string}")
def step_retrieval_shows(context: Context, text: str) -> None:
    """The retrieval test shows the text (e.g. no results)."""
    expect(DatasetPage(context.world.page).retrieval_message(text)).to_be_visible()


@then("the document {string} says its segments are hidden")
def step_segments_hidden(context: Context, name: str) -> None:
    """The document's button tells assistive technology its segments are not shown (collapsed)."""
    expect(DatasetPage(context.world.page).document_button(name)).to_have_attribute("aria-expanded", "false")


@then("the document {string} says its segments are shown")
def step_segments_shown(context: Context, name: str) -> None:
    """The document's button tells assistive technology its segments are shown (expanded)."""
    expect(DatasetPage(context.world.page).document_button(name)).to_have_attribute("aria-expanded", "true")


@when("I disable segment {int} of the document {string}")
def step_disable_segment(context: Context, number: int, name: str) -> None:
    """Disable the numbered segment of the document, and wait until the page has saved that."""
    switch = DatasetPage(context.world.page).segment_switch(name, number)
    switch.uncheck()
    expect(switch).to_be_enabled()  # the page disables it while the change is being saved
    expect(switch).not_to_be_checked()


READY_KNOWLEDGE_TOKEN = "COBALT-42"


def _ready_knowledge_token() -> str:
    """A token the seed verified is in the ready knowledge dataset (seed/data/knowledge.toml)."""
    tokens = [token for doc in dataset_specs()["ready-knowledge"].documents for token in doc.expected_tokens]
    assert READY_KNOWLEDGE_TOKEN in tokens, f"{READY_KNOWLEDGE_TOKEN} is no longer a seeded token: {tokens}"
    return READY_KNOWLEDGE_TOKEN


@when("I open the ready knowledge dataset's page")
def step_open_ready_knowledge(context: Context) -> None:
    """Open the seeded ready-knowledge dataset's page."""
    world: World = context.world
    hint = "Resolve the dataset first: 'Given the ready knowledge dataset is available'."
    dataset = need(world.agent_builder.seeded.ready_knowledge, hint)
    world.open(DatasetPage.path(dataset.id))


@when("I test retrieval with the ready knowledge query")
def step_ready_knowledge_query(context: Context) -> None:
    """Run the retrieval test with the ready-knowledge spec's query."""
    DatasetPage(context.world.page).test_retrieval(_ready_knowledge_token())


@then("the retrieval results include the ready knowledge token")
def step_ready_knowledge_token_found(context: Context) -> None:
    """A result contains the ready-knowledge spec's expected token."""
    results = DatasetPage(context.world.page).retrieval_result(_ready_knowledge_token())
    expect(results.first).to_be_visible()
