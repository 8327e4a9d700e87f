"""Steps the editor understands: what the Cucumber extension shows is what behave runs.

Every step definition is a Cucumber Expression written as a literal in its decorator; the editor
reads those literals from the source (support/lint/step_sources.py) with the parameter types
`.vscode/settings.json` declares, behave registers them with support/lint/step_parameters.py's. Here
both readings are built side by side: the same sentences, every one parsing with only the
declared types, and every step of every feature (each Examples row, with its Backgrounds)
matching exactly one of them, keyword ignored as Cucumber does, the very one behave runs.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from contextlib import chdir
from dataclasses import dataclass
from pathlib import Path

import pytest
from behave.cucumber_expression import StepMatcher4CucumberExpressions
from behave.parser import parse_file
from cucumber_expressions.expression import CucumberExpression
from cucumber_expressions.parameter_type import ParameterType
from cucumber_expressions.parameter_type_registry import ParameterTypeRegistry

from support import tags
from support.lint import step_parameters
from support.lint.step_definitions import loaded_steps
from support.lint.step_sources import Sentence, editor_problems, sentences

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = json.loads((ROOT / ".vscode" / "settings.json").read_text(encoding="utf-8"))
EXTENSIONS = json.loads((ROOT / ".vscode" / "extensions.json").read_text(encoding="utf-8"))


@dataclass(frozen=True)
class FeatureStep:
    where: str
    step_type: str
    text: str
    behave_runs: list[tuple[str, str]]  # (file, pattern) of each definition behave would try, in order


@dataclass(frozen=True)
class Suite:
    sentences: list[Sentence]
    registered: list[tuple[str, str, bool]]  # (file, pattern, is a Cucumber Expression) as behave loaded them
    load_problems: list[str]
    steps: list[FeatureStep]


@pytest.fixture(scope="module")
def suite() -> Iterator[Suite]:
    with chdir(ROOT), loaded_steps(Path("steps")) as definitions:
        registered = [
            (str(m.location.filename), str(m.pattern), isinstance(m, StepMatcher4CucumberExpressions))
            for m in definitions.definitions()
        ]
        steps = [
            FeatureStep(
                f"{path}:{step.line}",
                step.step_type,
                step.name,
                [
                    (str(m.location.filename), str(m.pattern))
                    for m in definitions.matching(step.step_type, step.name)
                ],
            )
            for path in sorted(Path("features").rglob("*.feature"))
            for scenario in parse_file(str(path)).walk_scenarios()
            for step in scenario.all_steps
        ]
        yield Suite(sentences(Path("steps")), registered, [str(p) for p in definitions.problems], steps)


def _editor_registry() -> ParameterTypeRegistry:
    """The Cucumber Expressions registry the editor builds: the built-in types and the declared ones."""
    registry = ParameterTypeRegistry()
    for declared in SETTINGS["cucumber.parameterTypes"]:
        registry.define_parameter_type(ParameterType(declared["name"], declared["regexp"], str, lambda s: s))
    return registry


def _literals(suite: Suite) -> list[Sentence]:
    """The sentences the editor can read at all (the others fail the literal test)."""
    return [sentence for sentence in suite.sentences if sentence.text is not None]


def test_the_editor_is_set_up_for_this_project() -> None:
    assert SETTINGS["cucumber.features"] == ["features/**/*.feature"]
    assert SETTINGS["cucumber.glue"] == ["steps/**/*.py"]
    assert "CucumberOpen.cucumber-official" in EXTENSIONS["recommendations"]


def test_the_editor_declares_exactly_the_parameter_types_behave_registers() -> None:
    expected = json.dumps(step_parameters.editor_parameter_types(), indent=2)
    assert SETTINGS["cucumber.parameterTypes"] == step_parameters.editor_parameter_types(), (
        f'.vscode/settings.json: set "cucumber.parameterTypes" to support/lint/step_parameters.py\'s:\n{expected}'
    )


@pytest.mark.parametrize("parameter", step_parameters.PARAMETERS, ids=lambda parameter: parameter.name)
def test_a_parameter_type_matches_its_example_and_captures_nothing(
    parameter: step_parameters.StepParameter,
) -> None:
    pattern = re.compile(parameter.regexp)
    assert pattern.groups == 0, "a group would split the value the step gets; use (?:...)"
    assert pattern.fullmatch(parameter.example)


def test_every_step_definition_is_a_literal_the_editor_reads_as_behave_does(suite: Suite) -> None:
    assert [str(problem) for problem in editor_problems(ROOT / "steps")] == []


def test_the_editor_indexes_exactly_the_definitions_behave_registers(suite: Suite) -> None:
    assert suite.load_problems == []
    assert all(cucumber for _, _, cucumber in suite.registered), "a step module chose another step matcher"
    read = Counter((sentence.path, sentence.text) for sentence in suite.sentences)
    registered = Counter((path, pattern) for path, pattern, _ in suite.registered)
    assert read == registered


def test_every_sentence_parses_with_only_the_declared_parameter_types(suite: Suite) -> None:
    registry = _editor_registry()
    for sentence in _literals(suite):
        CucumberExpression(sentence.text, registry)  # raises on an undeclared type or bad syntax


def test_every_feature_step_matches_exactly_one_sentence_the_one_behave_runs(suite: Suite) -> None:
    registry = _editor_registry()
    expressions = [
        ((sentence.path, str(sentence.text)), CucumberExpression(sentence.text, registry))
        for sentence in _literals(suite)
    ]
    wrong = []
    for step in suite.steps:
        editor = [sentence for sentence, expression in expressions if expression.match(step.text) is not None]
        if len(editor) != 1 or step.behave_runs[:1] != editor or len(step.behave_runs) != 1:
            wrong.append(
                f"{step.where}: {step.text!r}: the editor matches {editor}, behave {step.behave_runs}"
            )
    assert len(suite.steps) > 900
    assert wrong == []


def _tag_sentences() -> dict[str, str]:
    """The step texts support/tags.py names for the linter (fixture, readiness, scan, browser...)."""
    named = {
        name: value for name, value in vars(tags).items() if name.endswith("_STEP") and isinstance(value, str)
    }
    texts = set(tags.FIXTURE_STEPS.values()) | set(tags.TAG_STEPS.values())
    texts |= {text for group in tags.BROWSER_TAG_STEPS.values() for text in group}
    texts |= set(tags.SETUP_PREREQUISITES) | set(tags.SETUP_PREREQUISITES.values())
    texts |= {
        text for value in vars(tags).values() if isinstance(value, tags.StepNeeds) for text in value.steps
    }
    return named | {text: text for text in texts - set(named.values())}


def test_the_sentences_support_tags_names_are_the_literals_of_their_definitions(suite: Suite) -> None:
    literals = Counter(sentence.text for sentence in suite.sentences)
    named = _tag_sentences()
    assert len(named) > 10
    assert {name: literals[text] for name, text in named.items() if literals[text] != 1} == {}
