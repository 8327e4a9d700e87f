"""The feature linter: one small bad feature per rule, and a clean one with no problems."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.lint.features import lint, lint_paths
from tests.harness.lint_project import CLEAN, found, line_of, write_feature


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
            "core_with_a_fixture_tag_and_no_step_says_add_the_step",
            scenario("@core @knowledge-fixture", "Given a basic configured agent has been created via API"),
            ("core-with-fixture", "Scenario:"),
            message='replace @core with @prepared and keep @knowledge-fixture and add "Given the ready knowledge '
            'dataset is available"',
        ),
        case(
            # Reported once, at the Background step every scenario runs, and the missing tag is added.
            "core_with_a_fixture_step_in_the_background",
            """
            @core
            Feature: Publish
              Background:
                Given the stable chat model is available

              Scenario: One
                Given a runnable agent has been created via API

              Scenario: Two
                Given a runnable agent has been created via API
            """,
            ("core-with-fixture", "stable chat model"),
            message="this Background step reads a seeded fixture for every scenario it runs before: replace @core "
            'with @prepared and add @stable-model for "Given the stable chat model is available"; they then run '
            "in the post-merge lane: E2E_START_AGENT_BACKEND=1 make post-merge ARGS='features/x.feature'",
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
            "axe_scenario_without_its_scan_step",
            scenario("@axe @wcag-aa", "Given a basic configured agent has been created via API"),
            ("tag-without-step", "Scenario:"),
            message="the page has no accessibility violations",
        ),
        case(
            "axe_scenario_with_a_core_tag",
            scenario("@axe @wcag-aa @core", "Then the page has no accessibility violations"),
            ("axe-exclusive", "Scenario:"),
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
            "microphone_tag_without_a_microphone_step",
            scenario("@prepared @microphone", "Given a basic configured agent has been created via API"),
            ("browser-tag-without-step", "Scenario:"),
            message="the browser denies microphone access",
        ),
        case(
            "microphone_step_without_the_tag",
            scenario("@prepared", "Given the browser denies microphone access"),
            ("step-without-browser-tag", "denies microphone"),
            message="tag the scenario @microphone",
        ),
        case(
            "microphone_step_in_a_microphone_scenario_is_fine",
            scenario("@prepared @microphone", "Given the browser denies microphone access"),
        ),
        case(
            "undefined_step",
            CLEAN + "    And the agent is gone\n",
            ("undefined-step", "is gone"),
            message='"And the agent is gone"',
        ),
        case(
            "typographic_quotes_are_named_with_the_straight_sentence",
            CLEAN + "    When I open the agent “Imported…”\n",
            ("typographic-quotes", "Imported"),
            message='"When I open the agent “Imported…”" has typographic quotes (“ ” ‘ ’), which no step sentence '
            'uses: type straight quotes, "When I open the agent "Imported…""; then it matches steps/roster.py:',
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
            # Every Examples block is checked against its own columns; steps, cells and doc strings.
            "outline_placeholder_no_column_provides",
            """
            @core
            Feature: Roster
              Scenario Outline: Open <name>
                When I open the agent "<nmae>"
                  | <state> |
                Then the agent is listed
                  \"\"\"
                  <name> and <colour>
                  \"\"\"

                Examples:
                  | name | state |
                  | a    | b     |

                Examples:
                  | name |
                  | c    |
            """,
            ("unknown-placeholder", '"<nmae>"'),
            ("unknown-placeholder", '"<nmae>"'),
            ("unknown-placeholder", "| <state> |"),
            ("unknown-placeholder", "<colour>"),
            ("unknown-placeholder", "<colour>"),
            message="<nmae> is not a column of the Examples on line 11 (its columns: name, state), so behave "
            "would run the step with the literal text <nmae>; did you mean <name>?",
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
