"""`reload-before-live-check` (support/lint/review.py): what a reload shows must have been shown
on the live page first; contract checks and reload-only scenarios are not held to it."""

from __future__ import annotations

from support.lint.review import reload_problems
from support.lint.rules import LintCase, LintStep


def _case(*steps: str) -> LintCase:
    typed = []
    for line, text in enumerate(steps, start=2):
        keyword, _, rest = text.partition(" ")
        typed.append(LintStep(line, keyword, keyword.lower(), rest))
    return LintCase("s", 1, frozenset({"@core"}), tuple(typed))


def test_a_page_check_only_after_the_reload_is_reported_at_its_line() -> None:
    case = _case(
        'When I replace the instructions with "X"',
        "Then the configuration should be saved automatically",
        "When I refresh the page",
        'Then the instructions field shows "X"',
        'Then the agent\'s draft instructions are "X"',
    )

    problems = reload_problems("f.feature", case)

    assert [(p.line, p.rule) for p in problems] == [(5, "reload-before-live-check")]
    assert "check it before the reload too" in problems[0].message


def test_the_same_check_on_the_live_page_first_passes() -> None:
    case = _case(
        'When I replace the instructions with "X"',
        "Then the configuration should be saved automatically",
        'Then the instructions field shows "X"',
        "When I refresh the page",
        'Then the instructions field shows "X"',
    )

    assert reload_problems("f.feature", case) == []


def test_a_reload_that_is_the_scenarios_action_is_not_held_to_it() -> None:
    case = _case("Given a seeded history", "When I reload the web app", "Then the history is shown in order")

    assert reload_problems("f.feature", case) == []
