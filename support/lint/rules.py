"""The feature linter's rules for one scenario as it runs (support/lint/features.py parses the features).

Each message says what is wrong and how to fix it, naming the documented command where one
exists (`make steps`, `make post-merge ARGS=...`); features/README.md explains every rule.
"""

from __future__ import annotations

from dataclasses import dataclass

from behave.matchers import Matcher

from support.lint.problem import Problem
from support.lint.step_definitions import StepDefinitions
from support.tags import (
    AGENT_BACKEND_RUNTIME,
    BROWSER_TAG_STEPS,
    CORE,
    CORE_EXCLUSIVE_TAGS,
    DECISION_AGENT_STEP,
    FIXTURE_STEPS,
    KEYBOARD,
    KEYBOARD_STEP_PREFIX,
    NEEDS_TEST_HOOKS,
    PREPARED,
    RUNNABLE_AGENT_STEP,
    RUNTIME_READINESS_STEP,
    SETUP_PREREQUISITES,
    TAG_STEPS,
    combination_problems,
    needs_of,
)

# What an editor or a word processor types for `"` and `'`; no step sentence has them.
_TYPOGRAPHIC_QUOTES = str.maketrans(dict.fromkeys("“”„‟", '"') | dict.fromkeys("‘’‚‛", "'"))

# Setup step -> the rule that reports it when its prerequisite fixture step is not earlier.
_SETUP_RULES = {
    RUNNABLE_AGENT_STEP: "runnable-before-stable-model",
    DECISION_AGENT_STEP: "decision-before-decision-model",
}


@dataclass(frozen=True)
class LintStep:
    line: int
    keyword: str
    step_type: str  # given/when/then, resolved for And/But/*
    text: str
    background: bool = False  # a step of a Background the scenario runs first


@dataclass(frozen=True)
class LintCase:
    """A scenario as it runs (an outline: one Examples block), with everything it inherits."""

    name: str
    line: int
    tags: frozenset[str]
    steps: tuple[LintStep, ...]


def post_merge_command(name: str) -> str:
    return f"E2E_START_AGENT_BACKEND=1 make post-merge ARGS='-n \"{name}\"'"


def case_problems(shown: str, case: LintCase, steps: StepDefinitions | None) -> list[Problem]:
    core_fixtures = _core_fixture_problem(shown, case)
    texts = [step.text for step in case.steps]
    problems = [
        Problem(shown, case.line, rule, message)
        for rule, message in combination_problems(
            case.tags - _fixture_tags(case) if core_fixtures else case.tags
        )
    ]
    problems += core_fixtures
    if AGENT_BACKEND_RUNTIME in case.tags and RUNTIME_READINESS_STEP not in texts:
        message = (
            f'{AGENT_BACKEND_RUNTIME} needs the step "Given {RUNTIME_READINESS_STEP}" to probe the runtime '
            "first: add it as the first step"
        )
        problems.append(Problem(shown, case.line, "runtime-without-readiness", message))
    for tag, fixture_step in FIXTURE_STEPS.items():
        if tag in case.tags and fixture_step not in texts and not core_fixtures:
            message = (
                f'{tag} needs the fixture step "Given {fixture_step}": add it before the steps that use it'
            )
            problems.append(Problem(shown, case.line, "fixture-without-step", message))
    for tag, required in TAG_STEPS.items():
        if tag in case.tags and required not in texts:
            message = f'{tag} needs the step "{required}": add it to the scenario'
            problems.append(Problem(shown, case.line, "tag-without-step", message))
    if KEYBOARD in case.tags and not any(text.startswith(KEYBOARD_STEP_PREFIX) for text in texts):
        message = f'{KEYBOARD} drives a flow with the keyboard alone: add its keys ("When {KEYBOARD_STEP_PREFIX}...")'
        problems.append(Problem(shown, case.line, "keyboard-without-keys", message))
    for tag, tag_steps in BROWSER_TAG_STEPS.items():
        if tag in case.tags and not tag_steps & set(texts):
            message = f"{tag} chooses a browser that one of these steps uses: {', '.join(sorted(tag_steps))}"
            problems.append(Problem(shown, case.line, "browser-tag-without-step", message))
    for index, step in enumerate(case.steps):
        problems += _step_problems(
            shown, case, step, texts[:index], steps, quiet_fixtures=bool(core_fixtures)
        )
    return problems


def _fixture_tags(case: LintCase) -> frozenset[str]:
    """The fixture tags the scenario has or, by its fixture steps, should have."""
    by_step = {
        tag for tag, fixture_step in FIXTURE_STEPS.items() if fixture_step in {s.text for s in case.steps}
    }
    return frozenset(case.tags & set(FIXTURE_STEPS)) | by_step


def _core_fixture_problem(shown: str, case: LintCase) -> list[Problem]:
    """`@core` on a scenario that reads a seeded fixture: the whole fix in one message, at the
    Background step that reads it when a Background does (once for all its scenarios)."""
    fixtures = sorted(_fixture_tags(case))
    if CORE not in case.tags or not fixtures:
        return []
    texts = {step.text for step in case.steps}
    fixes = []
    for tag in fixtures:
        step = f'"Given {FIXTURE_STEPS[tag]}"'
        if tag not in case.tags:
            fixes.append(f"add {tag} for {step}")
        elif FIXTURE_STEPS[tag] not in texts:
            fixes.append(f"keep {tag} and add {step}")
        else:
            fixes.append(f"keep {tag} with {step}")
    others = sorted(case.tags & CORE_EXCLUSIVE_TAGS - set(fixtures))
    fix = f"replace {CORE} with {PREPARED} and {', '.join(fixes)}"
    also = f" (and see the {', '.join(others)} message)" if others else ""
    shared = [step for step in case.steps if step.background and step.text in FIXTURE_STEPS.values()]
    if shared:
        message = (
            f"{CORE} is the unseeded PR lane, but this Background step reads a seeded fixture for every scenario "
            f"it runs before: {fix}{also}; they then run in the post-merge lane: "
            f"E2E_START_AGENT_BACKEND=1 make post-merge ARGS='{shown}'"
        )
        return [Problem(shown, shared[0].line, "core-with-fixture", message)]
    message = (
        f"{CORE} is the unseeded PR lane, but this scenario reads a seeded fixture: {fix}{also}; "
        f"it then runs in the post-merge lane: {post_merge_command(case.name)}"
    )
    return [Problem(shown, case.line, "core-with-fixture", message)]


def _step_problems(
    shown: str,
    case: LintCase,
    step: LintStep,
    earlier: list[str],
    steps: StepDefinitions | None,
    *,
    quiet_fixtures: bool,
) -> list[Problem]:
    problems = []
    if step.text == RUNTIME_READINESS_STEP and AGENT_BACKEND_RUNTIME not in case.tags:
        message = f"the runtime readiness step belongs to {AGENT_BACKEND_RUNTIME} scenarios; tag the scenario"
        problems.append(Problem(shown, step.line, "readiness-without-runtime", message))
    for tag, fixture_step in FIXTURE_STEPS.items():
        if step.text == fixture_step and tag not in case.tags and not quiet_fixtures:
            message = f'"{fixture_step}" consumes a seeded fixture; tag the scenario {tag}'
            problems.append(Problem(shown, step.line, "step-without-fixture-tag", message))
    for tag, tag_steps in BROWSER_TAG_STEPS.items():
        if step.text in tag_steps and tag not in case.tags:
            message = f'"{step.text}" needs the browser of {tag} scenarios; tag the scenario {tag}'
            problems.append(Problem(shown, step.line, "step-without-browser-tag", message))
    prerequisite = SETUP_PREREQUISITES.get(step.text)
    if prerequisite is not None and prerequisite not in earlier:
        message = f'"{step.text}" needs "Given {prerequisite}" earlier in the scenario: add it before'
        problems.append(Problem(shown, step.line, _SETUP_RULES[step.text], message))
    if steps is not None:
        problems += _definition_problems(shown, case, step, earlier, steps)
    return problems


def _definition_problems(
    shown: str, case: LintCase, step: LintStep, earlier: list[str], steps: StepDefinitions
) -> list[Problem]:
    """The step's definition: exactly one, and what it declared it needs (support/tags.py)."""
    written = f"{step.keyword} {step.text}"
    matches = steps.matching(step.step_type, step.text)
    straight = step.text.translate(_TYPOGRAPHIC_QUOTES)
    if not matches and straight != step.text:
        return [_typographic_quotes(shown, step, straight, steps)]
    if not matches:
        hint = steps.did_you_mean(step.step_type, step.text) or "no sentence is defined yet."
        message = f'no step definition matches "{written}"; {hint} (`make steps` lists every sentence)'
        return [Problem(shown, step.line, "undefined-step", message)]
    if len(matches) > 1:
        where = ", ".join(f'"{m.pattern}" ({m.location})' for m in matches)
        message = f'"{written}" matches {len(matches)} definitions: {where}; make the sentences distinct'
        return [Problem(shown, step.line, "ambiguous-step", message)]
    return _needs_problems(shown, case, step, earlier, matches[0])


def _typographic_quotes(shown: str, step: LintStep, straight: str, steps: StepDefinitions) -> Problem:
    matches = steps.matching(step.step_type, straight)
    if matches:
        then = f"then it matches {matches[0].location}"
    else:
        then = steps.did_you_mean(step.step_type, straight) or "no sentence matches it either"
    message = (
        f'"{step.keyword} {step.text}" has typographic quotes (“ ” ‘ ’), which no step sentence uses: '
        f'type straight quotes, "{step.keyword} {straight}"; {then} (`make steps` lists every sentence)'
    )
    return Problem(shown, step.line, "typographic-quotes", message)


def _needs_problems(
    shown: str, case: LintCase, step: LintStep, earlier: list[str], matcher: Matcher
) -> list[Problem]:
    needs = needs_of(matcher.func)
    if needs is None:
        return []
    problems = []
    written = f'"{step.keyword} {step.text}" {needs.why} ({matcher.location})'
    missing = [tag for tag in needs.tags if tag not in case.tags]
    if missing:
        where = (
            "the deployed lane then leaves it out, and its report counts it"
            if missing == [NEEDS_TEST_HOOKS]
            else f"it then runs in the post-merge lane: {post_merge_command(case.name)}"
        )
        message = f"{written}: tag the scenario {' '.join(missing)}; {where}"
        problems.append(Problem(shown, step.line, "step-needs-tag", message))
    for needed in needs.steps:
        if needed not in earlier:
            message = f'{written}: it needs "Given {needed}" before it; add that step first'
            problems.append(Problem(shown, step.line, "step-needs-step", message))
    return problems
