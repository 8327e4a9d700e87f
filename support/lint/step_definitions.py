"""The step definitions in `steps/`, loaded the way behave loads them, for the feature linter.

They are Cucumber Expressions with the project's parameter types (support/lint/step_parameters.py),
as behave runs them. Each module is loaded on its own, so one broken or ambiguous module is a
finding about that file rather than the end of the check; `defines()` / `matching()` then ask
which definitions a step text has, exactly as behave would match it at run time, `overlaps()`
which sentences would make a step ambiguous, and `did_you_mean()` (also used at run time, on
behave's registry) which sentences an undefined step most likely meant.
"""

from __future__ import annotations

import difflib
import os
import runpy
import sys
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import behave
from behave.api.step_matchers import step_matcher, use_default_step_matcher, use_step_matcher
from behave.cucumber_expression import StepMatcher4CucumberExpressions
from behave.matchers import Matcher
from behave.model import Step

# behave's step registry and the error its decorators raise: the one private behave API the linter
# uses, here only (why: `_fresh_registry`).
from behave.step_registry import AmbiguousStep, StepRegistry, registry
from cucumber_expressions.ast import Node, NodeType
from cucumber_expressions.expression_parser import CucumberExpressionParser

from support.lint import step_parameters
from support.lint.problem import Problem

# What behave puts in a step module's globals, so modules may use the decorators without importing.
_STEP_GLOBALS: dict[str, Any] = {
    name: getattr(behave, name) for name in ("given", "when", "then", "step", "Given", "When", "Then", "Step")
} | {"use_step_matcher": use_step_matcher, "step_matcher": step_matcher}


def relative(path: Path | str) -> str:
    return os.path.relpath(path)


@contextmanager
def _fresh_registry() -> Iterator[StepRegistry]:
    """behave's global step registry, empty inside the block and as before after it.

    behave 1.3 has no public API for this: `@given/@when/@then` register into the module-level
    `behave.step_registry.registry`, and the only other way to find undefined steps is a
    `--dry-run` Runner, which loads all step modules at once (the first broken one ends the
    run), executes the project's environment.py, and checks every Examples row where the linter
    checks the first. Restoring it lets linting run twice in one process (the tests do) and see exactly one
    steps folder each time.
    """
    saved = registry.steps
    registry.steps = {step_type: [] for step_type in saved}
    try:
        yield registry
    finally:
        registry.steps = saved


@dataclass(frozen=True)
class StepDefinitions:
    """What a steps folder defines, and the problems loading it (valid inside `loaded_steps`)."""

    problems: list[Problem]
    _registry: StepRegistry

    def defines(self, line: int, keyword: str, step_type: str, text: str) -> bool:
        """Whether behave would find a definition for this step (`step_type`: given/when/then)."""
        return self._registry.find_match(Step("", line, keyword, step_type, text)) is not None

    def matching(self, step_type: str, text: str) -> list[Matcher]:
        """Every definition that matches the step, in behave's order (it runs the first)."""
        return [matcher for matcher in _candidates(self._registry, step_type) if matcher.match(text)]

    def definitions(self) -> list[Matcher]:
        """Every definition, in file and line order."""
        matchers = {id(m): m for kind in self._registry.steps.values() for m in kind}.values()
        return sorted(matchers, key=lambda m: (m.location.filename, m.location.line))

    def did_you_mean(self, step_type: str, text: str) -> str:
        return did_you_mean(self._registry, step_type, text)

    def overlaps(self) -> list[Problem]:
        """Sentences one of which would make a step ambiguous: a pattern that matches an example of
        another's (`I delete the {word} {string}` beside `I delete the agent {string}`), whatever
        their keywords (behave tells Given from Then; the editor, like Cucumber, does not)."""
        problems = []
        matchers = self.definitions()
        examples = [
            (specific, example(specific.pattern))
            for specific in matchers
            if isinstance(specific, StepMatcher4CucumberExpressions)
        ]
        for general in matchers:
            for specific, text in examples:
                if specific is not general and general.match(text) is not None:
                    problems.append(_overlap(general, specific))
        return problems


@contextmanager
def loaded_steps(steps_dir: Path) -> Iterator[StepDefinitions]:
    """The definitions as behave loads them: Cucumber Expressions with the project's types."""
    default = step_parameters.default_matcher_name()
    step_parameters.use()
    try:
        with _fresh_registry() as fresh:
            yield StepDefinitions(_load_step_modules(steps_dir), fresh)
    finally:
        use_default_step_matcher(default)


@contextmanager
def _importable(*folders: Path) -> Iterator[None]:
    """Like behave: step modules import helpers from the steps dir, and `support` from the root."""
    added = [str(folder) for folder in folders]
    sys.path[:0] = added
    try:
        yield
    finally:
        for folder in added:
            sys.path.remove(folder)


def _load_step_modules(steps_dir: Path) -> list[Problem]:
    if not steps_dir.is_dir():
        return [Problem(relative(steps_dir), 0, "step-load-error", "steps directory not found")]
    problems: list[Problem] = []
    with _importable(steps_dir.resolve(), steps_dir.resolve().parent):
        for module in sorted(path for path in steps_dir.iterdir() if path.suffix == ".py" and path.is_file()):
            try:
                # Relative, like behave's: step locations in messages read `steps/<file>.py:<line>`.
                runpy.run_path(relative(module), init_globals=dict(_STEP_GLOBALS))
            except AmbiguousStep as error:
                message = " ".join(str(error).split())
                problems.append(
                    Problem(relative(module), _error_line(error, module), "ambiguous-step", message)
                )
            except Exception as error:  # noqa: BLE001 - a broken step module is a lint finding, not a crash
                message = f"{type(error).__name__}: {error}"
                problems.append(
                    Problem(relative(module), _error_line(error, module), "step-load-error", message)
                )
            finally:
                use_default_step_matcher()  # a module's `use_step_matcher` ends with the module
    return problems


def _error_line(error: Exception, module: Path) -> int:
    target = module.resolve()
    if isinstance(error, SyntaxError) and error.filename and Path(error.filename).resolve() == target:
        return error.lineno or 0
    lines = [
        frame.lineno
        for frame in traceback.extract_tb(error.__traceback__)
        if Path(frame.filename).resolve() == target
    ]
    return (lines[-1] or 0) if lines else 0


def closest_sentences(registry: StepRegistry, step_type: str, text: str, count: int = 3) -> list[str]:
    """The `count` step patterns most like `text` among those a `step_type` step may use, with
    their keyword: what an undefined step (a typo, a reworded sentence) most likely meant."""
    keyword = {"given": "Given", "when": "When", "then": "Then"}.get(step_type, "*")
    patterns = [
        matcher.pattern
        for kind in dict.fromkeys((step_type, "step"))
        for matcher in registry.steps.get(kind, [])
        if isinstance(matcher.pattern, str)
    ]
    close = difflib.get_close_matches(text, list(dict.fromkeys(patterns)), n=count, cutoff=0.0)
    return [f"{keyword} {pattern}" for pattern in close]


def did_you_mean(registry: StepRegistry, step_type: str, text: str) -> str:
    """`did you mean: 'A', 'B' or 'C'?`, or nothing when no sentence is defined at all."""
    close = closest_sentences(registry, step_type, text)
    if not close:
        return ""
    quoted = [f"'{sentence}'" for sentence in close]
    listed = quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} or {quoted[-1]}"
    return f"did you mean: {listed}?"


def _candidates(registry: StepRegistry, step_type: str) -> list[Matcher]:
    """The definitions behave tries for a step of `step_type`: its own type's, then `@step`'s."""
    return [
        matcher for kind in dict.fromkeys((step_type, "step")) for matcher in registry.steps.get(kind, [])
    ]


def example(expression: str) -> str:
    """A step text the Cucumber Expression matches: each parameter an example of its type, each
    optional text written, each alternation its first alternative."""
    return _example_of(CucumberExpressionParser().parse(expression))


def _example_of(node: Node) -> str:
    if node.ast_type == NodeType.TEXT:
        text: str = node.text  # cucumber-expressions is untyped
        return text
    if node.ast_type == NodeType.PARAMETER:
        return step_parameters.example_of(node.text)
    if node.ast_type == NodeType.ALTERNATION:
        return _example_of(node.nodes[0])
    return "".join(_example_of(child) for child in node.nodes)


def _overlap(general: Matcher, specific: Matcher) -> Problem:
    where = general.location
    message = (
        f'"{general.pattern}" also matches the sentence "{specific.pattern}" ({specific.location}): a step '
        "written for either is ambiguous, and behave runs whichever loaded first; make the sentences "
        "distinct (`make steps` lists them all with their file:line)"
    )
    return Problem(str(where.filename), where.line, "ambiguous-step", message)
