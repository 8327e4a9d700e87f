"""Knowledge datasets: documents, indexing status, segments and the retrieval test."""

import re

from behave import given, then, when
from behave.runner import Context
from playwright.sync_api import expect

from support.api.models import Dataset
from support.api_setup.knowledge import create_dataset, create_indexed_dataset, track_dataset
from support.seeded.specs import dataset_specs
from support.ui.dataset import DatasetPage
from support.ui.knowledge import KnowledgePage
from support.world import World

# Indexing runs in the background; allow it longer than an ordinary UI assertion.
INDEXING_TIMEOUT_MS = 30_000


def _dataset(world: World) -> Dataset:
    dataset = world.agent_builder.knowledge.dataset
    if dataset is None:
        raise AssertionError("No dataset in this scenario yet: create one first.")
    return dataset


@when("I open the knowledge page")
def step_open_knowledge(context: Context) -> None:
    context.world.open(KnowledgePage.PATH)


@when('I create a dataset named "{label}"')
def step_create_dataset_ui(context: Context, label: str) -> None:
    world: World = context.world
    name = world.name(label)
    KnowledgePage(world.page).create_dataset(name)
    expect(world.page).to_have_url(DatasetPage.url())
    dataset_id = DatasetPage(world.page).dataset_id()
    (match,) = [d for d in world.console.list_datasets(name).data if d.id == dataset_id]
    track_dataset(world, match)


@then("I see the dataset's page")
def step_see_dataset(context: Context) -> None:
    world: World = context.world
    dataset = _dataset(world)
    expect(world.page).to_have_url(DatasetPage.url(dataset.id))
    expect(DatasetPage(world.page).title(dataset.name)).to_be_visible()


@then("the knowledge page lists the dataset")
def step_knowledge_lists(context: Context) -> None:
    world: World = context.world
    expect(KnowledgePage(world.page).link(_dataset(world).name)).to_be_visible()


@given("a dataset has been created via API")
def step_dataset_via_api(context: Context) -> None:
    create_dataset(context.world)


@given('a dataset with the document "{name}" containing "{text}" has been indexed via API')
def step_indexed_dataset(context: Context, name: str, text: str) -> None:
    create_indexed_dataset(context.world, name, text)


@when("I open the dataset's page")
def step_open_dataset(context: Context) -> None:
    world: World = context.world
    world.open(DatasetPage.path(_dataset(world).id))


@when('I upload the document "{name}" containing:')
def step_upload_document_text(context: Context, name: str) -> None:
    DatasetPage(context.world.page).upload(name, context.text)


@when('I upload the document "{name}" containing "{text}"')
def step_upload_document(context: Context, name: str, text: str) -> None:
    DatasetPage(context.world.page).upload(name, text)


@then('the document "{name}" reaches the status "{status}"')
def step_document_status(context: Context, name: str, status: str) -> None:
    world: World = context.world
    expect(DatasetPage(world.page).document_status(name)).to_have_text(status, timeout=INDEXING_TIMEOUT_MS)


@then('I see the document error "{text}"')
def step_document_error(context: Context, text: str) -> None:
    error = DatasetPage(context.world.page).error
    expect(error).to_contain_text(re.compile(re.escape(text), re.IGNORECASE))


@when('I test retrieval with the query "{query}"')
def step_test_retrieval(context: Context, query: str) -> None:
    DatasetPage(context.world.page).test_retrieval(query)


@then('the retrieval results include "{text}"')
def step_results_include(context: Context, text: str) -> None:
    expect(DatasetPage(context.world.page).retrieval_result(text)).to_have_count(1)


@then('the retrieval test shows "{text}"')
def step_retrieval_shows(context: Context, text: str) -> None:
    expect(DatasetPage(context.world.page).retrieval_message(text)).to_be_visible()


@when('I disable segment {number:d} of the document "{name}"')
def step_disable_segment(context: Context, number: int, name: str) -> None:
    DatasetPage(context.world.page).disable_segment(name, number)


READY_KNOWLEDGE_TOKEN = "COBALT-42"


def _ready_knowledge_token() -> str:
    """A token the seed verified is in the ready knowledge dataset (seed/data/knowledge.toml)."""
    tokens = [token for doc in dataset_specs()["ready-knowledge"].documents for token in doc.expected_tokens]
    assert READY_KNOWLEDGE_TOKEN in tokens, f"{READY_KNOWLEDGE_TOKEN} is no longer a seeded token: {tokens}"
    return READY_KNOWLEDGE_TOKEN


@when("I open the ready knowledge dataset's page")
def step_open_ready_knowledge(context: Context) -> None:
    world: World = context.world
    dataset = world.agent_builder.fixtures.ready_knowledge
    assert dataset is not None, "Resolve the dataset first: 'Given the ready knowledge dataset is available'."
    world.open(DatasetPage.path(dataset.id))


@when("I test retrieval with the ready knowledge query")
def step_ready_knowledge_query(context: Context) -> None:
    DatasetPage(context.world.page).test_retrieval(_ready_knowledge_token())


@then("the retrieval results include the ready knowledge token")
def step_ready_knowledge_token_found(context: Context) -> None:
    results = DatasetPage(context.world.page).retrieval_result(_ready_knowledge_token())
    expect(results.first).to_be_visible()
