"""Lanes are valid behave tag expressions selecting exactly the scenarios the design assigns them."""

from __future__ import annotations

import pytest
from behave.tag_expression import make_tag_expression

from support.lanes.plan import plan_lane
from support.lanes.selection import select_scenarios
from support.tags import LANES, behave_args, combination_problems, excluded_expression, rule_set


def selects(lane: str, *tags: str) -> bool:
    [argument] = behave_args(lane)
    expression = make_tag_expression(argument.removeprefix("--tags="))
    return expression.check([tag.removeprefix("@") for tag in tags])  # behave drops the "@"


def test_lane_names() -> None:
    assert list(LANES) == ["pr", "post-merge", "external", "a11y", "deployed", "full"]


@pytest.mark.parametrize(
    ("lane", "tags", "selected"),
    [
        ("pr", ("@core",), True),
        ("pr", ("@prepared", "@stable-model"), False),
        ("post-merge", ("@core",), False),
        ("post-merge", ("@prepared", "@stable-model"), True),
        ("post-merge", ("@agent-backend-runtime",), True),
        ("post-merge", ("@external-model",), True),
        ("post-merge", ("@external-tool",), True),
        ("external", ("@external-model", "@agent-backend-runtime"), True),
        ("external", ("@external-tool",), True),
        ("external", ("@prepared",), False),
        ("external", ("@agent-backend-runtime",), False),
        ("a11y", ("@axe", "@wcag-aa"), True),
        ("a11y", ("@core",), False),
        ("a11y", ("@keyboard",), True),
        ("a11y", ("@keyboard", "@needs-test-hooks"), True),
        ("a11y", ("@keyboard", "@prepared", "@stable-model"), False),
        ("a11y", ("@keyboard", "@agent-backend-runtime", "@external-model"), False),
        ("pr", ("@keyboard",), False),
        ("post-merge", ("@keyboard",), False),
        ("post-merge", ("@keyboard", "@prepared", "@stable-model"), True),
        ("post-merge", ("@keyboard", "@agent-backend-runtime", "@web-app-runtime", "@external-model"), True),
        ("deployed", ("@keyboard",), False),
        ("full", ("@keyboard",), True),
        ("pr", ("@axe", "@wcag-a"), False),
        ("post-merge", ("@axe", "@wcag-aa"), False),
        ("post-merge", ("@https", "@external-model", "@agent-backend-runtime"), False),
        ("deployed", ("@core",), True),
        ("deployed", ("@prepared", "@stable-model"), True),
        ("deployed", ("@external-model", "@agent-backend-runtime"), True),
        ("deployed", ("@https", "@external-model", "@agent-backend-runtime"), True),
        ("deployed", ("@core", "@needs-test-hooks"), False),
        ("deployed", ("@axe", "@wcag-aa"), False),
        ("full", ("@core",), True),
        ("full", ("@axe", "@wcag-a"), True),
        ("full", ("@https", "@external-model", "@agent-backend-runtime"), False),
    ],
)
def test_lane_selection(lane: str, tags: tuple[str, ...], selected: bool) -> None:
    assert selects(lane, *tags) is selected


def test_deployed_lane_counts_what_it_leaves_out() -> None:
    [argument] = behave_args("deployed")
    expression = make_tag_expression(excluded_expression("deployed", "@needs-test-hooks"))
    assert expression.check(["core", "needs-test-hooks"])
    assert not expression.check(["core"])
    assert not expression.check(["axe", "needs-test-hooks"])
    assert "@needs-test-hooks" in argument


def test_the_deployed_plan_counts_the_scenarios_it_leaves_out() -> None:
    plan = plan_lane("deployed")
    left_out = select_scenarios(["--tags=@needs-test-hooks", "--tags=@core or @prepared or @external-model"])
    [(why, count)] = plan.excluded.items()
    assert why.startswith("@needs-test-hooks: ") and count == len(left_out) > 0
    assert not {assignment.ref for assignment in plan.assignments} & set(left_out)


def test_https_scenarios_run_only_where_the_console_is_served_over_https() -> None:
    assert [rule for rule, _ in combination_problems({"@https", "@core"})] == ["https-exclusive"]
    assert [rule for rule, _ in combination_problems({"@https", "@axe", "@wcag-a"})] == ["https-exclusive"]
    assert combination_problems({"@https", "@external-model", "@agent-backend-runtime"}) == []


def test_unknown_lane_lists_the_lanes() -> None:
    with pytest.raises(ValueError, match="pr, post-merge, external, a11y, deployed, full"):
        behave_args("nightly")


def test_legal_combinations_have_no_problems() -> None:
    assert combination_problems({"@core"}) == []
    assert combination_problems({"@prepared", "@stable-model"}) == []
    assert combination_problems({"@external-model", "@agent-backend-runtime", "@web-app-runtime"}) == []


def test_combination_rules() -> None:
    [(rule, message)] = combination_problems({"@core", "@agent-backend-runtime", "@service-api-runtime"})
    assert rule == "core-exclusive"
    assert "@agent-backend-runtime, @service-api-runtime" in message
    assert [rule for rule, _ in combination_problems({"@stable-model"})] == ["no-execution-tag"]
    assert [rule for rule, _ in combination_problems({"@prepared", "@web-app-runtime"})] == [
        "surface-without-runtime"
    ]


def test_axe_scenarios_choose_one_rule_set_and_stand_alone() -> None:
    assert combination_problems({"@axe", "@wcag-aa"}) == []
    assert [rule for rule, _ in combination_problems({"@axe"})] == ["axe-rule-set"]
    assert [rule for rule, _ in combination_problems({"@axe", "@wcag-a", "@wcag-aa"})] == ["axe-rule-set"]
    [(rule, message)] = combination_problems({"@axe", "@wcag-a", "@prepared", "@stable-model"})
    assert rule == "axe-exclusive" and "@prepared, @stable-model" in message
    assert [rule for rule, _ in combination_problems({"@core", "@wcag-aa"})] == ["rule-set-without-axe"]


def test_keyboard_scenarios_run_alone_in_the_a11y_lane_or_with_the_post_merge_stack() -> None:
    assert combination_problems({"@keyboard"}) == []
    assert combination_problems({"@keyboard", "@needs-test-hooks"}) == []
    assert combination_problems({"@keyboard", "@prepared", "@stable-model"}) == []
    assert (
        combination_problems({"@keyboard", "@agent-backend-runtime", "@web-app-runtime", "@external-model"})
        == []
    )
    assert [rule for rule, _ in combination_problems({"@keyboard", "@core"})] == ["core-exclusive"]
    [(rule, message)] = combination_problems({"@keyboard", "@axe", "@wcag-aa"})
    assert rule == "axe-exclusive" and "@keyboard" in message
    assert [rule for rule, _ in combination_problems({"@keyboard", "@https"})] == ["https-exclusive"]
    assert combination_problems({"@keyboard", "@https", "@external-model", "@agent-backend-runtime"}) == []


def test_rule_set_tags_choose_the_axe_rules() -> None:
    assert rule_set({"@axe", "@wcag-a"}) == ("wcag2a", "wcag21a")
    assert rule_set({"@axe", "@wcag-aa"}) == ("wcag2a", "wcag21a", "wcag2aa", "wcag21aa")
    with pytest.raises(ValueError, match="exactly one"):
        rule_set({"@axe"})
