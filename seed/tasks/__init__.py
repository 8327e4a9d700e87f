"""Seed tasks, one module per resource: `models`, `tools`, `knowledge`, `agents`.

A task finds its resource by its stable `e2e-seed-...` name, repairs drift, verifies the result
through the console API and says what it did (`created`, `updated`, `verified`). When it cannot
reach that state it raises `Blocked` with the reason and the remediation; the runner turns that
into a `blocked` result with the task's owner. No task is ever skipped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Literal, Protocol, TypeVar

from seed.specs import ModelRole
from support.api.console import ConsoleClient
from support.api.models import Dataset, Model, Provider
from support.settings import Settings

Done = Literal["created", "updated", "verified"]


class Blocked(Exception):
    """The task cannot bring its resource into the specified state."""

    def __init__(self, reason: str, remediation: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.remediation = remediation


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


def provider_url(settings: Settings, replay_path: str, direct_url: str | None, direct_variable: str) -> str:
    """Where the console reaches a model or web-search provider.

    Through the lane's record/replay server whenever there is one: it replays, records or
    forwards depending on E2E_MODEL_MODE, and its fault patches apply in every mode. Only live
    mode may call the provider directly (say, the external lane against a deployment).
    """
    if settings.replay_url:
        return settings.replay_url + replay_path
    if settings.model_mode != "live":
        raise Blocked(
            f"E2E_MODEL_MODE={settings.model_mode} serves provider calls from the lane's record/replay "
            "server, but E2E_REPLAY_URL is not set",
            "run the lane with `make post-merge`, which starts the replay server, or start "
            "`python -m support.replay serve --cassettes features/cassettes --model <name> ...` where the "
            "console can reach it and set E2E_REPLAY_URL",
        )
    if not direct_url:
        raise Blocked(
            f"live mode without E2E_REPLAY_URL calls the provider directly, but {direct_variable} is not set",
            f"set {direct_variable} (or E2E_REPLAY_URL)",
        )
    return direct_url
