"""Cucumber's Before/After hooks, with tags and names, expressed with behave: a sample's step
module declares them with `before(...)`/`after(...)`; environment.py runs those whose tags match
in its before_scenario/after_scenario, each recorded as a hook (support/run/record.py);
BeforeAll/AfterAll hooks (`before_all`, `after_all`) in its before_all/after_all.

A hook skips by returning `SKIPPED`, as the kit's reference hooks return "skipped": a Before hook
that does skips the scenario (behave's `scenario.skip`), an After hook only itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from behave.model import Scenario
from behave.runner import Context
from behave.tag_expression import make_tag_expression

HookFunction = Callable[[Context], object]
SKIPPED = "skipped"


@dataclass(frozen=True)
class Hook:
    keyword: str  # "Before", "After", "BeforeAll" or "AfterAll"
    function: HookFunction
    tags: str | None = None
    name: str = ""

    def applies_to(self, scenario: Scenario) -> bool:
        return self.tags is None or bool(make_tag_expression(self.tags).check(scenario.effective_tags))


HOOKS: list[Hook] = []  # in definition order


def before(tags: str | None = None, name: str = "") -> Callable[[HookFunction], HookFunction]:
    def register(function: HookFunction) -> HookFunction:
        HOOKS.append(Hook("Before", function, tags, name))
        return function

    return register


def after(tags: str | None = None, name: str = "") -> Callable[[HookFunction], HookFunction]:
    def register(function: HookFunction) -> HookFunction:
        HOOKS.append(Hook("After", function, tags, name))
        return function

    return register


def before_all(name: str = "") -> Callable[[HookFunction], HookFunction]:
    """A BeforeAll hook: environment.py's before_all runs it (all of them, even after one failed)."""

    def register(function: HookFunction) -> HookFunction:
        HOOKS.append(Hook("BeforeAll", function, None, name))
        return function

    return register


def after_all(name: str = "") -> Callable[[HookFunction], HookFunction]:
    """An AfterAll hook: environment.py's after_all runs them, last-defined first, all of them."""

    def register(function: HookFunction) -> HookFunction:
        HOOKS.append(Hook("AfterAll", function, None, name))
        return function

    return register
