"""A check behave runs after every step: a model call that missed its cassette fails the step
during which it happened, with the miss itself as the message.

The product turns a miss into an ordinary error ("provider could not process the request
(404)"), so the step that waits for a reply would otherwise fail with a locator timeout that says
nothing about the cassette. behave 1.3 has no around-step hook, and an `after_step` hook cannot
change a step's error message, so `install` wraps each step definition once, after behave loaded
them (the location behave reports stays the step's own: it follows `__wrapped__`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Protocol

from behave.runner import Context
from behave.step_registry import StepRegistry

from support.replay.control import ReplayControl
from support.replay.explain import misses_text

StepFunction = Callable[..., None]
_CHECKED = "__e2e_checked__"
_CAUSE_LINES = 8


class ReplayScoped(Protocol):
    """What the check reads of the World (support/world.py), and the counter it keeps there."""

    replay: ReplayControl | None
    replay_misses_shown: int
    scenario_location: str


class ReplayMissError(AssertionError):
    """A model or search call of this step matched no recording (an AssertionError: a failed step)."""


def install(registry: StepRegistry) -> None:
    """Wrap every step definition in `registry`; idempotent."""
    for matchers in registry.steps.values():
        for matcher in matchers:
            if not getattr(matcher.func, _CHECKED, False):
                matcher.func = _checked(matcher.func)


def _checked(func: StepFunction) -> StepFunction:
    @functools.wraps(func)
    def step(context: Context, *args: Any, **kwargs: Any) -> None:
        try:
            func(context, *args, **kwargs)
        except Exception as error:
            raise_new_misses(getattr(context, "world", None), cause=error)
            raise
        raise_new_misses(getattr(context, "world", None))

    setattr(step, _CHECKED, True)
    return step


def raise_new_misses(world: ReplayScoped | None, cause: BaseException | None = None) -> None:
    """Raise `ReplayMissError` for the misses of the scenario's replay scope not yet reported."""
    if world is None or world.replay is None:
        return
    report = world.replay.scope_so_far()
    new = report.misses[world.replay_misses_shown :]
    if not new:
        return
    world.replay_misses_shown = len(report.misses)
    text = misses_text(new, report, world.scenario_location)
    if cause is not None:
        shown = str(cause).strip().splitlines()[:_CAUSE_LINES]
        text += "\n\nthe step then failed, as a consequence of the miss, with:\n" + "\n".join(
            f"    {line}" for line in shown
        )
    raise ReplayMissError(text) from cause
