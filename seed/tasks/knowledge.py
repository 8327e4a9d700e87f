"""Knowledge datasets built from `seed/data/knowledge/<key>/`, indexed and checked for tokens.

"Completed" is not enough: after indexing, each document's enabled segments must contain the
expected tokens from `knowledge.toml`, or retrieval scenarios would fail for the wrong reason.
"""

from __future__ import annotations

import time

from seed.tasks import Done, Outcome, SeedContext, Task, find_one
from support.api.models import Dataset
from support.seeded.blocked import Blocked
from support.seeded.drift import Drift, dataset_drift
from support.seeded.specs import DatasetSpec, dataset_specs

POLL_INTERVAL_S = 0.25


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
