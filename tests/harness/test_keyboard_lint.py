"""The feature linter's @keyboard rules: keys need the tag, the tag needs keys, and the tag runs in
the a11y lane on its own or in post-merge with that lane's tags, never with @core or @axe."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.lint.features import lint_paths
from tests.harness.lint_project import line_of, write_feature
from tests.harness.test_feature_lint import case, scenario


@pytest.mark.parametrize(
    ("feature", "expected", "message"),
    [
        case(
            "keyboard_scenario_without_its_keys",
            scenario("@keyboard", "Given a basic configured agent has been created via API"),
            ("keyboard-without-keys", "Scenario:"),
            message='add its keys ("When I press ...")',
        ),
        case(
            "key_pressed_in_a_scenario_without_the_keyboard_tag",
            scenario("@core", "When I press Enter"),
            ("step-needs-tag", "press Enter"),
            message="uses the keyboard or asserts focus",
        ),
        case(
            "keyboard_scenario_with_a_core_tag",
            scenario("@keyboard @core", "When I press Enter"),
            ("core-exclusive", "Scenario:"),
        ),
        case(
            "keyboard_scenario_with_an_axe_tag",
            scenario(
                "@keyboard @axe @wcag-aa",
                "When I press Enter",
                "Then the page has no accessibility violations",
            ),
            ("axe-exclusive", "Scenario:"),
        ),
        case("keyboard_scenario_with_its_keys", scenario("@keyboard", "When I press Enter")),
        case(
            "keyboard_scenario_that_needs_the_post_merge_stack",
            scenario("@keyboard @prepared", "When I press Enter"),
        ),
    ],
)
def test_keyboard_rules(
    project: Path, feature: str, expected: list[tuple[str, str]], message: str | None
) -> None:
    text = write_feature(project, feature)
    problems = lint_paths([Path("features")])
    assert [(problem.rule, problem.line) for problem in problems] == [
        (rule, line_of(text, needle)) for rule, needle in expected
    ]
    if message is not None:
        assert message in problems[0].message
