"""Knowledge datasets built from `seed/data/knowledge/<key>/`, indexed and checked for tokens.

"Completed" is not enough: after indexing, each document's enabled segments must contain the
expected tokens from `knowledge.toml`, or retrieval scenarios would fail for the wrong reason.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from seed.specs import DatasetSpec, DocumentSpec, dataset_specs
from seed.tasks import Blocked, Done, Outcome, SeedContext, Task, find_one
from support.api.console import ConsoleClient
from support.api.models import Dataset, Document

POLL_INTERVAL_S = 0.25


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


def _wait_until_indexed(ctx: SeedContext, dataset: Dataset) -> None:
    timeout_s = ctx.settings.seed_timeout_s
    deadline = time.monotonic() + timeout_s
    while True:
        documents = ctx.console.list_documents(dataset.id).data
        failed = [doc for doc in documents if doc.indexing_status == "error"]
        if failed:
            raise Blocked(
                "indexing failed: " + "; ".join(f"{doc.name}: {doc.error}" for doc in failed),
                "check the console's log for the indexing error",
            )
        pending = [doc for doc in documents if doc.indexing_status != "completed"]
        if not pending:
            return
        if time.monotonic() > deadline:
            states = ", ".join(f"{doc.name} {doc.indexing_status}" for doc in pending)
            raise Blocked(
                f"indexing did not complete within {timeout_s}s (E2E_SEED_TIMEOUT_S): {states}",
                "check the console's indexing worker in its log; "
                "raise E2E_SEED_TIMEOUT_S for a slow deployment",
            )
        time.sleep(POLL_INTERVAL_S)


def seed_dataset(ctx: SeedContext, spec: DatasetSpec) -> Outcome:
    existing = find_one(ctx.console.list_datasets(spec.name).data, spec.name, "dataset")
    files = ", ".join(document.file for document in spec.documents)
    if existing is None:
        if ctx.dry_run:
            return Outcome("created", f"would create {spec.name} from {files} and wait for indexing")
        dataset = ctx.console.create_dataset(spec.name, spec.description)
        repairs = [Drift(f"{document.file} is new", upload=document) for document in spec.documents]
        status: Done = "created"
    else:
        dataset = existing
        repairs = [drift for drift in dataset_drift(ctx.console, dataset, spec) if not drift.pending]
        status = "updated" if repairs else "verified"
        if ctx.dry_run:
            ctx.datasets[spec.key] = dataset
            if repairs:
                return Outcome("updated", "would repair: " + "; ".join(drift.reason for drift in repairs))
            return Outcome("verified", f"{spec.name} matches seed/data (would wait for any pending indexing)")
    for drift in repairs:
        if drift.remove is not None:
            ctx.console.delete_document(dataset.id, drift.remove.id)
        if drift.upload is not None:
            ctx.console.upload_document(dataset.id, drift.upload.file, spec.content(drift.upload))
    _wait_until_indexed(ctx, dataset)
    remaining = dataset_drift(ctx.console, dataset, spec)
    if remaining:
        raise Blocked(
            f"{spec.name} still differs after re-uploading: " + "; ".join(d.reason for d in remaining),
            "make every token in seed/data/knowledge.toml appear in its document under "
            f"seed/data/knowledge/{spec.key}/",
        )
    ctx.datasets[spec.key] = dataset
    summary = f"{spec.name}: {len(spec.documents)} document(s) completed, expected tokens in enabled segments"
    if status == "updated":
        summary += " (repaired: " + "; ".join(drift.reason for drift in repairs) + ")"
    return Outcome(status, summary)


def dataset_task(key: str) -> Task:
    spec = dataset_specs()[key]
    return Task(key, "seed/knowledge", (), lambda ctx: seed_dataset(ctx, spec))
