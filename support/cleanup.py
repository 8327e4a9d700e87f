"""Typed cleanup queues for what a scenario creates, removed children-before-owners.

Known resource kinds go into typed queues so their removal order is fixed and auditable;
anything else is a plain callback, run last and LIFO. Every item is attempted even when
others fail, so one broken removal never leaks the rest.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum


class ResourceKind(Enum):
    """Members are declared in removal order (see `Cleanup.run`)."""

    # Tool credentials go first, as agreed for the suite.
    TOOL_CREDENTIAL = "tool credential"
    # API keys and files belong to an agent: removed before their owner.
    API_KEY = "API key"
    FILE = "file"
    # An agent may reference datasets, and a product may refuse to delete a dataset in use,
    # so agents go before datasets. A dataset's documents go with the dataset.
    AGENT = "agent"
    DATASET = "dataset"


class ResourceGone(Exception):
    """Raised by a `remove` function when the resource no longer exists (e.g. a 404).

    Counts as a successful removal: the goal, that the resource is gone, is met.
    """


@dataclass(frozen=True)
class CleanupFailure:
    kind: ResourceKind | None  # None for a registered callback
    resource_id: str | None
    label: str
    error: str

    def __str__(self) -> str:
        what = f"{self.kind.value} {self.resource_id} ({self.label})" if self.kind else self.label
        return f"{what}: {self.error}"


@dataclass(frozen=True)
class _Tracked:
    resource_id: str
    remove: Callable[[], None]
    label: str


class Cleanup:
    def __init__(self) -> None:
        self._queues: dict[ResourceKind, list[_Tracked]] = {kind: [] for kind in ResourceKind}
        self._callbacks: list[tuple[Callable[[], None], str]] = []

    def track(self, kind: ResourceKind, resource_id: str, remove: Callable[[], None], label: str) -> None:
        """Remember a created resource; `remove` deletes it (raising `ResourceGone` if already gone)."""
        self._queues[kind].append(_Tracked(resource_id, remove, label))

    def register(self, fn: Callable[[], None], label: str) -> None:
        """Any other undo action; callbacks run after the typed queues, last registered first."""
        self._callbacks.append((fn, label))

    def run(self) -> list[CleanupFailure]:
        """Remove everything, kinds in `ResourceKind` order, each kind newest first; then callbacks LIFO.

        Returns the failures (empty when all went well) and leaves the queues empty, so a second
        run does nothing.
        """
        # Take everything out first: nothing is ever attempted twice, even after an interrupted run.
        queues, self._queues = self._queues, {kind: [] for kind in ResourceKind}
        callbacks, self._callbacks = self._callbacks, []
        failures: list[CleanupFailure] = []
        for kind in ResourceKind:
            for item in reversed(queues[kind]):
                error = _attempt(item.remove)
                if error is not None:
                    failures.append(CleanupFailure(kind, item.resource_id, item.label, error))
        for fn, label in reversed(callbacks):
            error = _attempt(fn)
            if error is not None:
                failures.append(CleanupFailure(None, None, label, error))
        return failures


def _attempt(action: Callable[[], None]) -> str | None:
    try:
        action()
    except ResourceGone:
        return None
    except Exception as error:  # noqa: BLE001 - every failure is reported, none stops the others
        return f"{type(error).__name__}: {error}"
    return None
