"""What a run leaves beyond behave's model, for the reports: what each step or hook attached, the
hooks that ran, with their outcome (support/run/result.py makes them report rows; Cucumber
Messages makes them `hook` test steps and `attachment`s), and what behave loaded (`definitions`).

`Recorder` is a behave formatter the hooks add to the runner's own (`install`): behave tells its
formatters when a step is matched and when it has its result, and hands them whatever
`context.attach(media_type, data)` embeds, so an attachment lands on the step that made it. A
hook is one of the suite's functions around behave's before/after_scenario (or before_all,
after_all: the run's hooks, kept across scenarios): `Recorder.hook` times it, keeps its outcome
and attachments, and lets an exception through to behave as before.
"""

from __future__ import annotations

import base64
import inspect
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

from behave.cucumber_expression import StepMatcher4CucumberExpressions
from behave.formatter.api import IFormatter
from behave.matchers import Matcher, RegexMatcher
from behave.model import Scenario, Step
from behave.runner import Context
from behave.step_registry import StepRegistry
from cucumber_expressions.parameter_type_registry import ParameterTypeRegistry

from support.reports import Attachment, Definition

RUN_HOOKS = ("BeforeAll", "AfterAll")  # behave's before_all/after_all; "Before", "After": a scenario's
_KINDS: dict[str, Literal["before", "after", "before-all", "after-all"]] = {
    "Before": "before",
    "After": "after",
    "BeforeAll": "before-all",
    "AfterAll": "after-all",
}


@dataclass
class HookRun:
    keyword: str  # "Before", "After", "BeforeAll" or "AfterAll"
    name: str
    source: str  # `path:line` of the hook function
    status: str = "passed"  # or "failed", "skipped"
    duration_s: float = 0.0
    error: str | None = None
    exception_type: str | None = None
    attachments: list[Attachment] = field(default_factory=list)
    started_at: datetime = field(default_factory=lambda: datetime.now(UTC))


class Recorder(IFormatter):  # type: ignore[misc]  # IFormatter is Any: types-behave lacks behave.formatter
    """One per behave process; its records are the current scenario's (reset by `scenario`)."""

    name = "record"

    def __init__(self) -> None:
        self.run_hooks: list[HookRun] = []  # the run's (BeforeAll, AfterAll), kept across scenarios
        self.hooks: list[HookRun] = []
        self._attachments: dict[int, list[Attachment]] = {}  # id(step) -> what it attached
        self._running: list[Attachment] | None = None  # where an attachment made now belongs
        self._stray: list[Attachment] = []  # attached outside any step or hook

    # behave's formatter protocol (the other calls are IFormatter's no-ops)
    def scenario(self, scenario: Scenario) -> None:
        self.hooks, self._attachments, self._running, self._stray = [], {}, None, []

    def match(self, match: object) -> None:
        self._running = []  # the step about to run (its before_step hook included)

    def result(self, step: Step) -> None:
        if self._running is not None:
            self._attachments[id(step)] = self._running
        self._running = None

    def close(self) -> None:
        """Nothing to write: the hooks make the reports (IFormatter's own raises)."""

    def embedding(self, mime_type: str, data: bytes | str) -> None:
        """`context.attach(media_type, data)`: text as is, bytes base64-encoded."""
        self.attach(data, mime_type)

    def attach(self, data: bytes | str, media_type: str, *, file_name: str | None = None) -> None:
        """Like `context.attach`, and with a file name the report offers it under."""
        if isinstance(data, str):
            attachment = Attachment(media_type, data, "identity", file_name)
        else:
            attachment = Attachment(media_type, base64.b64encode(data).decode("ascii"), "base64", file_name)
        (self._running if self._running is not None else self._stray).append(attachment)

    def attachments_of(self, step: Step) -> list[Attachment]:
        return self._attachments.get(id(step), [])

    def stray(self) -> list[Attachment]:
        """What was attached between steps and hooks: the reports show it on the scenario's last entry."""
        return self._stray

    @contextmanager
    def hook(self, keyword: str, function: Callable[..., Any], name: str | None = None) -> Iterator[HookRun]:
        """Run a hook's body inside: its time, outcome and attachments are kept; an exception goes on."""
        run = HookRun(keyword, function.__name__ if name is None else name, source_of(function))
        (self.run_hooks if keyword in RUN_HOOKS else self.hooks).append(run)
        outer, self._running = self._running, run.attachments
        started = time.perf_counter()
        try:
            yield run
        except BaseException as error:
            run.status, run.exception_type = "failed", type(error).__name__
            run.error = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
            raise
        finally:
            run.duration_s = time.perf_counter() - started
            self._running = outer

    def skipped(self, keyword: str, function: Callable[..., Any], name: str | None = None) -> HookRun:
        """A hook that did not run because an earlier one skipped the scenario."""
        run = HookRun(keyword, function.__name__ if name is None else name, source_of(function), "skipped")
        (self.run_hooks if keyword in RUN_HOOKS else self.hooks).append(run)
        return run


def install(context: Context) -> Recorder:
    """A recorder among the runner's formatters (`context.recorder` from then on); call in before_all."""
    recorder = Recorder()
    context._runner.formatters.append(recorder)  # behave's formatter list: where `attach` embeds
    context.recorder = recorder
    return recorder


def source_of(function: Callable[..., Any]) -> str:
    """`path:line` of a function, the path relative to the working directory (as behave's are)."""
    function = inspect.unwrap(function)
    try:
        path = inspect.getsourcefile(function) or "<unknown>"
        line = inspect.getsourcelines(function)[1]
    except (OSError, TypeError):
        return "<unknown>"
    return f"{os.path.relpath(path)}:{line}"


def step_definitions(registry: StepRegistry) -> list[Definition]:
    """Every step definition behave loaded, used or not, in file and line order."""
    matchers: dict[int, Matcher] = {
        id(matcher): matcher for matchers in registry.steps.values() for matcher in matchers
    }
    ordered = sorted(matchers.values(), key=lambda m: (m.location.filename, m.location.line))
    return [
        Definition(
            "step",
            str(matcher.pattern),
            f"{matcher.location.filename}:{matcher.location.line}",
            regex=isinstance(matcher, RegexMatcher),
        )
        for matcher in ordered
    ]


def definitions(registry: StepRegistry, hooks: dict[str, Callable[..., Any]]) -> list[Definition]:
    """What behave loaded (step definitions, parameter types) and the hooks (keyword -> function)."""
    loaded = [*parameter_types(), *step_definitions(registry)]
    return loaded + [hook_definition(keyword, function) for keyword, function in hooks.items()]


def hook_definition(keyword: str, function: Callable[..., Any], name: str | None = None) -> Definition:
    return Definition(_KINDS[keyword], function.__name__ if name is None else name, source_of(function))


def parameter_types() -> list[Definition]:
    """The parameter types steps defined for Cucumber expressions (behave's `cucumber_expressions`
    matcher), beside the built-in ones ({int}, {string}, ...)."""
    built_in = ParameterTypeRegistry().parameter_type_by_name
    defined = StepMatcher4CucumberExpressions.TYPE_REGISTRY.parameter_types.parameter_type_by_name
    return [
        Definition("parameter-type", name, source_of(kind.transformer), patterns=kind.regexps)
        for name, kind in defined.items()
        if name not in built_in
    ]
