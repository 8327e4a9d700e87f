"""The feature linter and the step definitions: ambiguous, overlapping, broken or undefined ones."""

from __future__ import annotations

from pathlib import Path

from behave.step_registry import registry

from support.lint.features import lint_paths
from tests.harness.lint_project import CLEAN, found, line_of, write_feature


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
        'from behave import when\n\n@when("I open the {word} {string}")\ndef open_any(context, what, name): pass\n'
    )
    problems = lint_paths([Path("features")])
    assert [(p.path, p.line, p.rule) for p in problems] == [
        ("steps/zz_general.py", 3, "ambiguous-step"),
        ("features/x.feature", line_of(text, "I open the agent"), "ambiguous-step"),
    ]
    assert 'also matches the sentence "I open the agent {string}" (steps/roster.py:' in problems[0].message
    assert "matches 2 definitions" in problems[1].message


def test_broken_step_module_is_reported_not_raised(project: Path) -> None:
    # Its definitions are missing, so undefined steps are not reported: the load error is the cause.
    write_feature(project, CLEAN + "    And I see nothing\n")
    (project / "steps" / "broken.py").write_text("import os\nimport no_such_module_here\n")
    [problem] = lint_paths([Path("features")])
    assert (problem.path, problem.line, problem.rule) == ("steps/broken.py", 2, "step-load-error")
    assert "no_such_module_here" in problem.message


def test_step_modules_can_import_from_the_project_root(project: Path) -> None:
    (project / "helpers_for_lint_test.py").write_text("def archive(context): pass\n")
    (project / "steps" / "archive.py").write_text(
        "from behave import then\nfrom helpers_for_lint_test import archive\n\n"
        '@then("the agent is archived")\ndef archived(context): archive(context)\n'
    )
    write_feature(project, CLEAN + "    And the agent is archived\n")
    assert found(project) == []


def test_a_sentence_the_editor_cannot_read_as_behave_does_is_reported(project: Path) -> None:
    write_feature(project, CLEAN + "    And the agent is archived\n    And the agent is kept for now\n")
    (project / "steps" / "archive.py").write_text(
        "from behave import then\n\nARCHIVED = 'the agent is archived'\n\n"
        "@then(ARCHIVED)\ndef archived(context): pass\n\n"
        '@then("the agent is kept (for now)")\ndef kept(context): pass\n'
    )
    problems = lint_paths([Path("features")])
    assert [(p.path, p.line, p.rule) for p in problems] == [
        ("steps/archive.py", 5, "editor-step"),
        ("steps/archive.py", 8, "editor-step"),
    ]
    assert "ARCHIVED, not a string literal" in problems[0].message
    assert "as a regular expression" in problems[1].message


def test_quoted_text_is_a_string_parameter_in_either_quotes(project: Path) -> None:
    # {string} takes "..." or '...': text with double quotes in it is written in single ones.
    write_feature(project, CLEAN + "    When I open the agent 'Say \"hi\"'\n")
    assert found(project) == []


def test_a_parse_placeholder_is_a_load_error_naming_the_cucumber_types(project: Path) -> None:
    write_feature(project, CLEAN)
    (project / "steps" / "old.py").write_text(
        "from behave import then\n\n@then('the agent is named \"{name}\"')\ndef named(context, name): pass\n"
    )
    [problem] = lint_paths([Path("features")])
    assert (problem.path, problem.rule) == ("steps/old.py", "step-load-error")
    assert "Undefined parameter type 'name'" in problem.message


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


def test_missing_steps_dir_is_one_problem(project: Path) -> None:
    write_feature(project, CLEAN)
    problems = lint_paths([Path("features")], steps_dir=Path("no-steps"))
    assert [(problem.path, problem.rule) for problem in problems] == [("no-steps", "step-load-error")]
