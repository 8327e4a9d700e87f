"""How step sentences are written: Cucumber Expressions, with the project's parameter types.

Every step definition in `steps/` is a Cucumber Expression (behave's `cucumber_expressions`
matcher): `{string}` for quoted text (passed without its quotes), `{int}` and `{float}` for
numbers, and the few types below for words a sentence chooses from. They are defined here once:
`use()` registers them with behave and makes Cucumber Expressions the default matcher before
behave loads `steps/` (environment.py, and the linter's `support/lint/step_definitions.py`), and the
editor reads the same names and regexps from `.vscode/settings.json` (`cucumber.parameterTypes`;
tests/harness/test_cucumber_expressions.py keeps the two equal).

A regexp here is read by Python and by the editor's JavaScript alike: plain alternatives and
character classes, no capture group (the transformer gets the whole match).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from behave.cucumber_expression import (
    StepMatcher4CucumberExpressions,
    use_step_matcher_for_cucumber_expressions,
)
from behave.matchers import get_step_matcher_factory, use_default_step_matcher
from cucumber_expressions.parameter_type import ParameterType

MATCHER = StepMatcher4CucumberExpressions.NAME  # "cucumber_expressions"


def _text(value: str) -> str:
    return value


def _quoted_texts(value: str) -> list[str]:
    return re.findall(r'"([^"]*)"', value)


@dataclass(frozen=True)
class StepParameter:
    """A parameter type of the project's step sentences: `{name}` in a step definition."""

    name: str
    regexp: str
    example: str  # a text it matches (the linter's overlap check writes sentences with it)
    doc: str
    transformer: Callable[[str], Any] = _text

    def parameter_type(self) -> ParameterType:
        kind = list if self.transformer is _quoted_texts else str
        return ParameterType(self.name, self.regexp, kind, self.transformer, use_for_snippets=False)


PARAMETERS: tuple[StepParameter, ...] = (
    StepParameter(
        "strings",
        r'"[^"]*"(?:(?:, | and )"[^"]*")*',
        '"A", "B" and "C"',
        'quoted texts, listed as "A", "B" and "C" (the step gets the list of texts)',
        _quoted_texts,
    ),
    StepParameter("tab", "first|second", "first", "which of the configure page's two tabs"),
    StepParameter(
        "held_request",
        "draft save|access change|roster search|file upload|variable deletion|transcription|sign-out|credential check",
        "draft save",
        "a request the console holds open (`Given the console holds the next ...`)",
    ),
    StepParameter(
        "variable",
        "[A-Za-z_][A-Za-z0-9_]*",
        "REGION",
        "an environment variable's name, written as is (an invalid name is quoted text instead)",
    ),
    StepParameter(
        "model_parameter", "temperature|max tokens", "temperature", "a model parameter of the agent's draft"
    ),
    StepParameter("resource", "tool|dataset", "tool", "what a build assistant proposal names"),
    StepParameter("key", r"Shift\+Tab|Tab|Enter|Space|Escape", "Tab", "a key a keyboard user presses"),
    StepParameter(
        "role",
        "button|link|textbox|checkbox|combobox",
        "button",
        "the role of a control a keyboard user reaches (its accessible name follows, quoted)",
    ),
)

# Built-in types a sentence may use, with a text each matches (Cucumber's own {word}, {} and the
# wider numbers are not used: a free word or anything would blur which sentence a step means).
BUILT_IN_EXAMPLES = {"string": '"x"', "int": "1", "float": "1.5"}


def use() -> None:
    """Cucumber Expressions with the project's parameter types, as the default step matcher.

    Idempotent, and a type behave dropped (its runtime reset clears registered types) is defined
    again: call it whenever behave is about to load `steps/`.
    """
    use_step_matcher_for_cucumber_expressions()  # registers the matcher with behave on first use
    registry = StepMatcher4CucumberExpressions.TYPE_REGISTRY.parameter_types
    for parameter in PARAMETERS:
        if registry.lookup_by_type_name(parameter.name) is None:
            registry.define_parameter_type(parameter.parameter_type())
    use_default_step_matcher(MATCHER)


def default_matcher_name() -> str:
    """The matcher behave gives a step module that chooses none (to put back after `use`)."""
    name: str = get_step_matcher_factory().default_matcher_name
    return name


def editor_parameter_types() -> list[dict[str, str]]:
    """`cucumber.parameterTypes` of `.vscode/settings.json`: what the Cucumber extension needs."""
    return [{"name": parameter.name, "regexp": parameter.regexp} for parameter in PARAMETERS]


def example_of(name: str) -> str:
    """A text the parameter type `name` matches."""
    by_name = {parameter.name: parameter.example for parameter in PARAMETERS}
    return by_name.get(name) or BUILT_IN_EXAMPLES.get(name, "x")
