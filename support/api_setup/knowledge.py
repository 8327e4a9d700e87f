"""Scenario-owned datasets and their documents; "the dataset" is the last one created."""

from __future__ import annotations

from support.api.models import Dataset, Document
from support.api.polling import poll_until
from support.api_setup.tracking import gone_on_404
from support.cleanup import ResourceKind
from support.step_helpers import LONG_WAIT_MS, need
from support.world import World


def track_dataset(world: World, dataset: Dataset) -> Dataset:
    world.track(
        ResourceKind.DATASET,
        dataset.id,
        gone_on_404(lambda: world.console.delete_dataset(dataset.id)),
        dataset.name,
    )
    world.agent_builder.knowledge.dataset = dataset
    return dataset


def track_dataset_created_in_page(world: World, dataset_id: str, name: str) -> Dataset:
    """Track the dataset the page just created (found through the API); it becomes "the dataset"."""
    (dataset,) = [d for d in world.console.list_datasets(name).data if d.id == dataset_id]
    return track_dataset(world, dataset)


def create_dataset(world: World, label: str = "dataset") -> Dataset:
    return track_dataset(world, world.console.create_dataset(world.name(label)))


def delete_dataset(world: World) -> None:
    """Delete "the dataset" through the API, as another admin would (its cleanup then finds it gone)."""
    dataset = need(world.agent_builder.knowledge.dataset, "start with 'a dataset has been created via API'")
    world.console.delete_dataset(dataset.id)


def create_indexed_dataset(world: World, document_name: str, text: str) -> Document:
    """A new dataset holding one document, once the console has indexed it."""
    dataset = create_dataset(world)
    document = wait_until_indexed(
        world, world.console.upload_document(dataset.id, document_name, text.encode())
    )
    world.agent_builder.knowledge.document = document
    return document


def wait_until_indexed(world: World, document: Document, timeout_s: float = LONG_WAIT_MS / 1000) -> Document:
    document = poll_until(
        lambda: world.console.get_document(document.dataset_id, document.id),
        lambda current: current.indexing_status in ("completed", "error"),
        timeout_s=timeout_s,
        interval_s=0.1,
        failure=lambda current: f"{current.name} still {current.indexing_status} after {timeout_s:.0f}s",
    )
    if document.indexing_status == "error":
        raise AssertionError(f"Indexing {document.name} failed: {document.error}")
    return document
