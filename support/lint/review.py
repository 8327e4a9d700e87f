"""Rules for the ways a scenario misses a bug (features/README.md, "Eight ways a scenario misses a
bug") that a linter can see.

`reload-before-live-check`: a page check made after a reload must also be made before it, on the
live page: a page that shows the result only after a reload is a bug the reload hides. Contract
checks (the agent's draft, the console API: they read the server, not the page) may come after
the reload alone, and a scenario whose first action is the reload (what a reload shows is what it
is about) is not held to it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from support.lint.problem import Problem
from support.lint.rules import LintCase, LintStep

RELOADS = frozenset({"I refresh the page", "I reload the web app"})
# Then steps that read the server through its contract, not the page.
CONTRACT_CHECK = re.compile(
    r"^the (agent's (draft|published|enabled tools)|agent (still exists|has)|console (API|has)|proposal was saved)"
)


def reload_problems(shown: str, case: LintCase) -> list[Problem]:
    problems = []
    steps = case.steps
    for index, step in enumerate(steps):
        if step.step_type != "when" or step.text not in RELOADS:
            continue
        if not any(earlier.step_type == "when" for earlier in steps[:index]):
            continue  # the reload is the action: what it shows is the scenario's point
        live = {check.text for check in _thens(reversed(steps[:index]))}
        for check in _thens(steps[index + 1 :]):
            if check.text not in live and not CONTRACT_CHECK.match(check.text):
                message = (
                    f'"Then {check.text}" is checked after "When {step.text}" but not on the live page'
                    " before it: check it before the reload too (a page that shows the result only after"
                    ' a reload is a bug the reload hides; features/README.md, "Eight ways a scenario misses a bug")'
                )
                problems.append(Problem(shown, check.line, "reload-before-live-check", message))
    return problems


def _thens(steps: Iterable[LintStep]) -> list[LintStep]:
    """The Then steps that follow directly (a run of them, up to the next action)."""
    found: list[LintStep] = []
    for step in steps:
        if step.step_type != "then":
            break
        found.append(step)
    return found
