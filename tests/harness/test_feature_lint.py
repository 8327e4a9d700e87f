"""The feature linter: one small bad feature per rule, and a clean one with no problems."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from behave.step_registry import registry

from support.lint import lint, lint_paths, main
from support.problem import Problem

STEPS = """
from behave import given, when, then
from support.tags import WEB_APP_CHAT

@given("the stable chat model is available")
def stable(context): pass

@given("the decision chat model is available")
def decision(context): pass

@given("the ready knowledge dataset is available")
def knowledge(context): pass

@given("the agent runtime backend is available")
def runtime(context): pass

@given("a basic configured agent has been created via API")
def basic(context): pass

@given("a runnable agent has been created via API")
def runnable(context): pass

@given("a decision agent has been created via API")
def decision_agent(context): pass

@when('I open the agent "{name}"')
def open_agent(context, name): pass

@then("the agent is listed")
def listed(context): pass

@then("the agent is shown")
def shown(context): pass

@then("the agent is gone from the list")
def gone(context): pass

@when('I send the message "{text}"')
@WEB_APP_CHAT
def send(context, text): pass
"""

CLEAN = """
@core
Feature: Roster
  Scenario: Open an agent
    Given a basic configured agent has been created via API
    When I open the agent "Support"
    Then the agent is listed
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project root with a steps dir; the cwd, so problems show relative paths."""
    (tmp_path / "steps").mkdir()
    (tmp_path / "steps" / "roster.py").write_text(STEPS)
    (tmp_path / "features").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def write_feature(project: Path, text: str, name: str = "x.feature") -> str:
    text = textwrap.dedent(text).lstrip("\n")
    (project / "features" / name).write_text(text)
    return text


def line_of(text: str, needle: str, occurrence: int = 1) -> int:
    lines = [number for number, line in enumerate(text.splitlines(), start=1) if needle in line]
    return lines[occurrence - 1]


def found(project: Path) -> list[tuple[str, int]]:
    return [(problem.rule, problem.line) for problem in lint_paths([Path("features")])]


def test_clean_feature_has_no_problems(project: Path) -> None:
    write_feature(project, CLEAN)
    report = lint([Path("features")])
    assert (report.problems, report.feature_files, report.scenarios) == ([], 1, 1)


@pytest.mark.parametrize(
    ("tags", "rule", "needle"),
    [
        ("@core @smoke", "unknown-tag", "@smoke"),
        ("@core @wip", "forbidden-tag", "@wip"),
        ("@core @skip", "forbidden-tag", "@skip"),
        ("@core @prepared", "core-exclusive", "Scenario:"),
        ("@core @external-model", "core-exclusive", "Scenario:"),
        ("", "no-execution-tag", "Scenario:"),
        ("@prepared @service-api-runtime", "surface-without-runtime", "Scenario:"),
    ],
)
def test_tag_rules(project: Path, tags: str, rule: str, needle: str) -> None:
    text = write_feature(
        project,
        f"""
        Feature: Roster
          {tags}
          Scenario: Open an agent
            Given a basic configured agent has been created via API
        """,
    )
    assert found(project) == [(rule, line_of(text, needle))]


def scenario(tags: str, *steps: str) -> str:
    """A feature with `tags` and one scenario of `steps`."""
    return "\n".join([tags, "Feature: F", "  Scenario: S", *(f"    {step}" for step in steps)]) + "\n"


def case(id_: str, feature: str, *expected: tuple[str, str], message: str | None = None) -> object:
    """A feature (dedented), the (rule, text on the reported line) it yields, and a message fragment."""
    return pytest.param(feature, list(expected), message, id=id_)


@pytest.mark.parametrize(
    ("feature", "expected", "message"),
    [
        case(
            "syntax_error_reports_the_parser_line",
            CLEAN + "  Scenaro: typo\n",
            ("syntax", "Scenaro"),
            message="Scenaro: typo",
        ),
        case(
            "unknown_tag_suggests_the_closest",
            CLEAN.replace("@core", "@core @stable-modle"),
            ("unknown-tag", "@stable-modle"),
            message="did you mean @stable-model?",
        ),
        case(
            "core_with_a_fixture_says_use_prepared_in_one_message",
            scenario("@core @knowledge-fixture", "Given the ready knowledge dataset is available"),
            ("core-with-fixture", "Scenario:"),
            message='replace @core with @prepared and keep @knowledge-fixture with "Given the ready knowledge '
            'dataset is available"',
        ),
        case(
            "core_with_a_fixture_step_and_no_fixture_tag_is_the_same_one_message",
            scenario("@core", "Given the ready knowledge dataset is available"),
            ("core-with-fixture", "Scenario:"),
            message="E2E_START_AGENT_BACKEND=1 make post-merge ARGS='-n \"S\"'",
        ),
        case(
            "chat_step_without_its_tags_and_readiness_step",
            scenario("@prepared", 'When I send the message "hi"'),
            ("step-needs-tag", "send the message"),
            ("step-needs-step", "send the message"),
            message="chats with the agent in its web app (steps/roster.py:38): tag the scenario "
            "@agent-backend-runtime @web-app-runtime",
        ),
        case(
            "chat_step_without_the_readiness_step",
            scenario("@agent-backend-runtime @web-app-runtime", 'When I send the message "hi"'),
            ("runtime-without-readiness", "Scenario:"),
            ("step-needs-step", "send the message"),
        ),
        case(
            "chat_step_with_everything_it_needs",
            scenario(
                "@agent-backend-runtime @web-app-runtime",
                "Given the agent runtime backend is available",
                'When I send the message "hi"',
            ),
        ),
        case(
            "runtime_without_readiness_step",
            """
            Feature: Runtime
              @agent-backend-runtime @web-app-runtime
              Scenario: Chat
                Given a basic configured agent has been created via API
            """,
            ("runtime-without-readiness", "Scenario:"),
        ),
        case(
            "readiness_step_without_runtime_tag",
            scenario("@prepared", "Given the agent runtime backend is available"),
            ("readiness-without-runtime", "runtime backend"),
        ),
        case(
            "fixture_tag_without_its_step",
            scenario(
                "@prepared @knowledge-fixture", "Given a basic configured agent has been created via API"
            ),
            ("fixture-without-step", "Scenario:"),
            message="the ready knowledge dataset is available",
        ),
        case(
            "fixture_step_without_its_tag",
            scenario("@prepared", "Given the ready knowledge dataset is available"),
            ("step-without-fixture-tag", "knowledge dataset"),
            message="@knowledge-fixture",
        ),
        case(
            "runnable_agent_before_the_stable_model",
            scenario(
                "@prepared @stable-model",
                "Given a runnable agent has been created via API",
                "And the stable chat model is available",
            ),
            ("runnable-before-stable-model", "runnable agent"),
        ),
        case(
            "runnable_agent_without_the_stable_model",
            scenario("@prepared", "Given a runnable agent has been created via API"),
            ("runnable-before-stable-model", "runnable agent"),
        ),
        case(
            "decision_agent_needs_the_decision_model_first",
            scenario(
                "@prepared @stable-model",
                "Given the stable chat model is available",
                "And a decision agent has been created via API",
            ),
            ("decision-before-decision-model", "decision agent"),
        ),
        case(
            "setup_after_its_fixture_step_is_fine",
            scenario(
                "@prepared @stable-model @decision-model",
                "Given the stable chat model is available",
                "And the decision chat model is available",
                "And a runnable agent has been created via API",
                "And a decision agent has been created via API",
            ),
        ),
        case(
            "undefined_step",
            CLEAN + "    And the agent is gone\n",
            ("undefined-step", "is gone"),
            message='"And the agent is gone"',
        ),
        case(
            "undefined_step_gets_the_three_closest_sentences",
            CLEAN + "    And the agent is listd\n",
            ("undefined-step", "is listd"),
            message="did you mean: 'Then the agent is listed', 'Then the agent is shown' or 'Then the agent is gone "
            "from the list'? (`make steps` lists every sentence)",
        ),
        case(
            # "the agent is listed" is a Then step: after When, "And" makes it a When step.
            "and_but_take_the_type_of_the_previous_keyword",
            scenario(
                "@core",
                'When I open the agent "a"',
                "And the agent is listed",
                "Then the agent is listed",
                "But the agent is listed",
            ),
            ("undefined-step", "And the agent"),
        ),
        case(
            "feature_tags_are_inherited",
            """
            @prepared
            Feature: Roster
              @core
              Scenario: Open an agent
                Given a basic configured agent has been created via API
            """,
            ("core-exclusive", "Scenario:"),
        ),
        case(
            "rule_and_examples_tags_are_inherited",
            """
            Feature: Roster
              @core
              Rule: Agents open
                Scenario Outline: Open <name>
                  When I open the agent "<name>"

                  @prepared
                  Examples:
                    | name |
                    | a    |
            """,
            ("core-exclusive", "Scenario Outline:"),
        ),
        case(
            # The undefined Background step is reported once, not per scenario; the fixture is satisfied.
            "background_steps_count_for_every_scenario",
            """
            @prepared @stable-model
            Feature: Publish
              Background:
                Given the stable chat model is available
                And the agent is fine

              Scenario: One
                Given a runnable agent has been created via API

              Scenario: Two
                Given a runnable agent has been created via API
            """,
            ("undefined-step", "is fine"),
        ),
    ],
)
def test_scenario_rules(
    project: Path, feature: str, expected: list[tuple[str, str]], message: str | None
) -> None:
    text = write_feature(project, feature)
    problems = lint_paths([Path("features")])
    assert [(problem.rule, problem.line) for problem in problems] == [
        (rule, line_of(text, needle)) for rule, needle in expected
    ]
    if message is not None:
        assert message in problems[0].message


def test_duplicate_scenario_names(project: Path) -> None:
    text = write_feature(project, CLEAN + CLEAN.split("\n", 3)[3])
    [problem] = lint_paths([Path("features")])
    assert (problem.rule, problem.line) == ("duplicate-scenario", line_of(text, "Scenario:", 2))
    assert f"line {line_of(text, 'Scenario:')}" in problem.message


def test_ambiguous_step_definitions_are_reported_with_their_file(project: Path) -> None:
    write_feature(project, CLEAN + "    And I see nothing\n")  # undefined, but not reported: see below
    (project / "steps" / "zz_copy.py").write_text(
        'from behave import then\n\n@then("the agent is listed")\ndef again(context): pass\n'
    )
    [problem] = lint_paths([Path("features")])
    assert (problem.path, problem.line, problem.rule) == ("steps/zz_copy.py", 3, "ambiguous-step")
    assert "steps/roster.py" in problem.message


def test_a_sentence_that_overlaps_another_is_reported_where_it_is_defined(project: Path) -> None:
    text = write_feature(project, CLEAN)
    (project / "steps" / "zz_general.py").write_text(
        "from behave import when\n\n@when('I open the {what} \"{name}\"')\ndef open_any(context, what, name): pass\n"
    )
    problems = lint_paths([Path("features")])
    assert [(p.path, p.line, p.rule) for p in problems] == [
        ("steps/zz_general.py", 3, "ambiguous-step"),
        ("features/x.feature", line_of(text, "I open the agent"), "ambiguous-step"),
    ]
    assert 'also matches the sentence "I open the agent "{name}"" (steps/roster.py:' in problems[0].message
    assert "matches 2 definitions" in problems[1].message


def test_broken_step_module_is_reported_not_raised(project: Path) -> None:
    # Its definitions are missing, so undefined steps are not reported: the load error is the cause.
    write_feature(project, CLEAN + "    And I see nothing\n")
    (project / "steps" / "broken.py").write_text("import os\nimport no_such_module_here\n")
    [problem] = lint_paths([Path("features")])
    assert (problem.path, problem.line, problem.rule) == ("steps/broken.py", 2, "step-load-error")
    assert "no_such_module_here" in problem.message


def test_step_modules_can_import_from_the_project_root(project: Path) -> None:
    (project / "helpers_for_lint_test.py").write_text("SENTENCE = 'the agent is archived'\n")
    (project / "steps" / "archive.py").write_text(
        "from behave import then\nfrom helpers_for_lint_test import SENTENCE\n\n"
        "@then(SENTENCE)\ndef archived(context): pass\n"
    )
    write_feature(project, CLEAN + "    And the agent is archived\n")
    assert found(project) == []


def test_no_feature_files(project: Path) -> None:
    assert found(project) == [("no-features", 0)]


def test_outline_steps_are_matched_with_the_first_example_row(project: Path) -> None:
    text = write_feature(
        project,
        """
        @core
        Feature: Roster
          Scenario Outline: Open <name>
            When I open the agent "<name>"
            Then the agent is <state>

            Examples:
              | name | state  |
              | a    | listed |
              | b    | gone   |
        """,
    )
    assert found(project) == []
    text = write_feature(project, text.replace("| a    | listed |", "| a    | hidden |"))
    [problem] = lint_paths([Path("features")])
    assert (problem.rule, problem.line) == ("undefined-step", line_of(text, "Then the agent is <state>"))
    assert "the agent is hidden" in problem.message


def test_lint_restores_the_step_registry(project: Path) -> None:
    write_feature(project, CLEAN)
    before = registry.steps
    lint_paths([Path("features")])
    assert registry.steps is before
    # A second run in the same process loads the same definitions again (no ambiguity with itself).
    assert lint_paths([Path("features")]) == []


def test_problem_prints_as_path_line_rule_message() -> None:
    assert (
        str(Problem("features/a.feature", 3, "unknown-tag", "@x")) == "features/a.feature:3: unknown-tag: @x"
    )


def test_cli_prints_problems_and_fails(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = write_feature(project, CLEAN.replace("@core", "@core @wip"))
    assert main([]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"features/x.feature:{line_of(text, '@wip')}: forbidden-tag: @wip")


def test_cli_passes_clean_features_with_a_summary(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_feature(project, CLEAN)
    write_feature(project, CLEAN.replace("Roster", "Other"), name="y.feature")
    assert main(["features/x.feature", "features/y.feature"]) == 0
    assert capsys.readouterr().out == "2 feature files, 2 scenarios: OK\n"


def test_missing_steps_dir_is_one_problem(project: Path) -> None:
    write_feature(project, CLEAN)
    problems = lint_paths([Path("features")], steps_dir=Path("no-steps"))
    assert [(problem.path, problem.rule) for problem in problems] == [("no-steps", "step-load-error")]
