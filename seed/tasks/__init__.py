"""Seed tasks, one module per resource: `models`, `tools`, `knowledge`, `agents`.

A task finds its resource by its stable `e2e-seed-...` name, repairs drift, verifies the result
through the console API and says what it did (`created`, `updated`, `verified`). When it cannot
reach that state it raises `Blocked` (`support/seeded/blocked.py`) with the reason and the
remediation; the runner turns that into a `blocked` result with the task's owner. No task is ever
skipped. What a resource must look like (specs, stable names, endpoints, drift checks) is in
`support/seeded/`, shared with the fixture steps; the tasks only make it so.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Literal, Protocol, TypeVar

from support.api.console import ConsoleClient
from support.api.models import Dataset, Model, Provider
from support.seeded.blocked import Blocked
from support.seeded.specs import ModelRole
from support.settings import Settings

Done = Literal["created", "updated", "verified"]


@dataclass(frozen=True)
class Outcome:
    status: Done
    detail: str


@dataclass
class SeedContext:
    """What one seed run knows: settings, the console, and the resources earlier tasks resolved.

    In a dry run a resource that would be created is absent here, and later tasks say what they
    would do once it exists.
    """

    settings: Settings
    console: ConsoleClient
    dry_run: bool
    provider: Provider | None = None
    models: dict[ModelRole, Model] = field(default_factory=dict)
    datasets: dict[str, Dataset] = field(default_factory=dict)


@dataclass(frozen=True)
class Task:
    name: str
    owner: str  # who fixes it when blocked, e.g. `seed/model-provider`
    needs: tuple[str, ...]  # tasks whose resources this one uses; they run first
    run: Callable[[SeedContext], Outcome]


class _Named(Protocol):
    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...


NamedT = TypeVar("NamedT", bound=_Named)


def find_one(items: Iterable[NamedT], name: str, kind: str) -> NamedT | None:
    """The resource called exactly `name`; two of them is a conflict the seed must not guess at."""
    matches = [item for item in items if item.name == name]
    if len(matches) > 1:
        raise Blocked(
            f"{len(matches)} {kind}s are named {name}; the seed cannot tell which one is the fixture",
            f"delete all but one of them in the console (ids {', '.join(item.id for item in matches)})",
        )
    return matches[0] if matches else None
