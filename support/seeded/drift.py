"""How a seeded agent or dataset differs from its spec: the seed repairs what these find, and a
fixture step fails on it. Empty means exactly as seeded."""

from __future__ import annotations

from dataclasses import dataclass

from support.api.console import ConsoleClient
from support.api.models import AgentConfig, AgentDetail, Dataset, Document
from support.seeded.specs import DatasetSpec, DocumentSpec


def config_differences(actual: AgentConfig, desired: AgentConfig) -> list[str]:
    """The top-level settings (instructions, model, tools, ...) in which `actual` differs."""
    have, want = actual.model_dump(mode="json"), desired.model_dump(mode="json")
    return [name for name in want if have.get(name) != want[name]]


def agent_drift(agent: AgentDetail, desired: AgentConfig) -> list[str]:
    """Why the agent is not exactly as seeded; empty when its draft and published config match the spec."""
    drift = []
    if agent.published is None:
        drift.append("not published")
    elif differences := config_differences(agent.published.config, desired):
        drift.append(f"published config differs in {', '.join(differences)}")
    if differences := config_differences(agent.draft.config, desired):
        drift.append(f"draft differs in {', '.join(differences)}")
    return drift


@dataclass(frozen=True)
class Drift:
    """One way a seeded dataset differs from its spec, and what repairs it."""

    reason: str
    remove: Document | None = None  # delete this document
    upload: DocumentSpec | None = None  # then upload this one
    # Waiting or indexing: nothing to repair, only to wait for (and not yet usable by a scenario).
    pending: bool = False


def dataset_drift(console: ConsoleClient, dataset: Dataset, spec: DatasetSpec) -> list[Drift]:
    """Every difference between the dataset's documents and the spec; empty means as seeded."""
    documents = console.list_documents(dataset.id).data
    expected = {document.file: document for document in spec.documents}
    drift = [Drift(f"unexpected document {d.name}", remove=d) for d in documents if d.name not in expected]
    for name, document_spec in expected.items():
        copies = [doc for doc in documents if doc.name == name]
        drift += [Drift(f"duplicate document {name}", remove=doc) for doc in copies[1:]]
        if not copies:
            drift.append(Drift(f"{name} is missing", upload=document_spec))
            continue
        drift += _document_drift(console, copies[0], document_spec, len(spec.content(document_spec)))
    return drift


def _document_drift(console: ConsoleClient, document: Document, spec: DocumentSpec, size: int) -> list[Drift]:
    if document.size != size:
        reason = f"{document.name} differs from seed/data ({document.size} bytes, expected {size})"
        return [Drift(reason, document, spec)]
    if document.indexing_status == "error":
        return [Drift(f"{document.name} failed to index: {document.error}", document, spec)]
    if document.indexing_status != "completed":
        return [Drift(f"{document.name} is still {document.indexing_status}", pending=True)]
    segments = console.list_segments(document.dataset_id, document.id).data
    enabled_text = "\n\n".join(segment.content for segment in segments if segment.enabled)
    missing = [token for token in spec.expected_tokens if token not in enabled_text]
    if missing:
        reason = f"{document.name}: no enabled segment contains {', '.join(map(repr, missing))}"
        return [Drift(reason, document, spec)]
    return []
