"""The tag grammar and the named lanes: the one place that says what a tag means.

Execution tags decide which lane runs a scenario; fixture tags only describe which seeded
resource a scenario consumes and each requires its fixture step. The linter
(`support/lint/features.py`), the lane runner (`support/lanes/cli.py`), the Makefile and CI all read this
module, so a lane or a rule is never spelled twice. Tags are written with their `@`, as in
feature files; a scenario's tags include those of its Feature, Rule and Examples.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any, TypeVar

from behave.tag_expression.builder import make_tag_expression

CORE = "@core"
PREPARED = "@prepared"
EXTERNAL_MODEL = "@external-model"
EXTERNAL_TOOL = "@external-tool"
AGENT_BACKEND_RUNTIME = "@agent-backend-runtime"
WEB_APP_RUNTIME = "@web-app-runtime"
SERVICE_API_RUNTIME = "@service-api-runtime"
AXE = "@axe"
# Keyboard use: the a11y lane's other half. A @keyboard scenario does a primary flow with the
# keyboard alone and asserts where focus is and that it shows. On its own it runs in the a11y lane,
# on the embedded console (like @axe); one that needs seeded models or the runtime (publish, chat)
# carries their tags too and runs in the post-merge lane, which starts that stack.
KEYBOARD = "@keyboard"
# Where a scenario can run, besides its lane: @https needs the console served over https (the
# deployed lane: an embedded web app keeps its visitor only in a Secure, Partitioned cookie);
# @needs-test-hooks needs what only the suite's own consoles mount (the test seeding router), so
# the deployed lane leaves it out and its report counts it.
HTTPS = "@https"
NEEDS_TEST_HOOKS = "@needs-test-hooks"

EXECUTION_TAGS = frozenset(
    {CORE, PREPARED, EXTERNAL_MODEL, EXTERNAL_TOOL, AGENT_BACKEND_RUNTIME, AXE, KEYBOARD}
)
RUNTIME_SURFACE_TAGS = frozenset({WEB_APP_RUNTIME, SERVICE_API_RUNTIME})
RUNTIME_TAGS = RUNTIME_SURFACE_TAGS | {AGENT_BACKEND_RUNTIME}

STABLE_MODEL_STEP = "the stable chat model is available"
DECISION_MODEL_STEP = "the decision chat model is available"
# Fixture tag -> the fixture step (text after the keyword) a tagged scenario must contain.
FIXTURE_STEPS: Mapping[str, str] = {
    "@stable-model": STABLE_MODEL_STEP,
    "@decision-model": DECISION_MODEL_STEP,
    "@knowledge-fixture": "the ready knowledge dataset is available",
    "@tool-fixture": "the web search tool credential is available",
    "@full-config-agent": "the full config agent is available",
    "@tool-states-agent": "the tool states agent is available",
    "@dual-retrieval-fixture": "the dual retrieval agent is available",
    "@skill-fixture": "the skill fixture agent is available",
    "@speech-to-text-model": "the speech-to-text model is available",
}
RUNTIME_READINESS_STEP = "the agent runtime backend is available"
# `@core` must stay exactly the deterministic PR set: no seeded fixtures, models, tools or runtime
# (the PR lane runs against a fresh, unseeded console).
CORE_EXCLUSIVE_TAGS = (
    frozenset({PREPARED, EXTERNAL_MODEL, EXTERNAL_TOOL, KEYBOARD}) | RUNTIME_TAGS | frozenset(FIXTURE_STEPS)
)
# The tags that put a scenario in the post-merge lane (its stack: seed, replayed models, runtime).
POST_MERGE_TAGS = frozenset({PREPARED, AGENT_BACKEND_RUNTIME, EXTERNAL_MODEL, EXTERNAL_TOOL})

# The setup sentences that choose an agent on a seeded model (the basic agent needs none).
RUNNABLE_AGENT_STEP = "a runnable agent has been created via API"
DECISION_AGENT_STEP = "a decision agent has been created via API"
# Setup step -> the fixture step that must come before it.
SETUP_PREREQUISITES: Mapping[str, str] = {
    RUNNABLE_AGENT_STEP: STABLE_MODEL_STEP,
    DECISION_AGENT_STEP: DECISION_MODEL_STEP,
}

# Accessibility: `@axe` scenarios scan pages with axe-core on the embedded console (like @core,
# they need no seed, model or runtime: a web app comes from the test seeding router), so they
# combine with no other execution, runtime or fixture tag. Their rule-set tag never changes
# execution; it chooses the axe rules: WCAG 2.0/2.1 level A, or A and AA.
AXE_SCAN_STEP = "the page has no accessibility violations"
RULE_SET_TAGS: Mapping[str, tuple[str, ...]] = {
    "@wcag-a": ("wcag2a", "wcag21a"),
    "@wcag-aa": ("wcag2a", "wcag21a", "wcag2aa", "wcag21aa"),
}
AXE_EXCLUSIVE_TAGS = (EXECUTION_TAGS - {AXE}) | RUNTIME_TAGS | frozenset(FIXTURE_STEPS)
# Tag -> a step (text after the keyword) every scenario with that tag must contain.
TAG_STEPS: Mapping[str, str] = {AXE: AXE_SCAN_STEP}
# A @keyboard scenario presses keys (steps starting with this), and a step that presses keys or
# asserts focus needs @keyboard (KEYBOARD_USE, below), so every keyboard scenario is in the lane.
KEYBOARD_STEP_PREFIX = "I press "

# Browser tags choose the browser a scenario runs in (World.start, support/world.py), never its lane. A
# @microphone scenario gets a Chromium whose fake microphone plays the seeded voice clip, with the
# microphone permission granted; these steps use that microphone (or take the permission away),
# so each needs the tag, and the tag needs one of them.
MICROPHONE = "@microphone"
RECORD_IN_PREVIEW_STEP = "I record a voice message in the preview"
RECORD_IN_WEB_APP_STEP = "I record a voice message in the web app"
START_RECORDING_IN_PREVIEW_STEP = "I start a voice message in the preview"
RECORD_HELD_IN_PREVIEW_STEP = (
    "I record a voice message in the preview while the console holds its transcription"
)
DENY_MICROPHONE_STEP = "the browser denies microphone access"
BROWSER_TAG_STEPS: Mapping[str, frozenset[str]] = {
    MICROPHONE: frozenset(
        {
            RECORD_IN_PREVIEW_STEP,
            RECORD_IN_WEB_APP_STEP,
            START_RECORDING_IN_PREVIEW_STEP,
            RECORD_HELD_IN_PREVIEW_STEP,
            DENY_MICROPHONE_STEP,
        }
    ),
}

# Left-over markers: a scenario is either in a lane or deleted, never parked.
FORBIDDEN_TAGS = frozenset({"@skip", "@wip"})
KNOWN_TAGS = (
    EXECUTION_TAGS
    | RUNTIME_SURFACE_TAGS
    | frozenset(FIXTURE_STEPS)
    | frozenset(RULE_SET_TAGS)
    | frozenset(BROWSER_TAG_STEPS)
    | {HTTPS, NEEDS_TEST_HOOKS}
)

_SEEDED_OR_RUNTIME = f"{PREPARED} or {AGENT_BACKEND_RUNTIME} or {EXTERNAL_MODEL} or {EXTERNAL_TOOL}"
# The a11y lane: every scan, and every keyboard scenario the embedded console can run alone.
_A11Y = f"{AXE} or ({KEYBOARD} and not ({_SEEDED_OR_RUNTIME}))"
# Lane name -> the tags a lane leaves out of what it would otherwise run, each with the reason its
# report gives (the deployed lane runs the PR and post-merge sets against a real deployment).
LANE_EXCLUSIONS: Mapping[str, Mapping[str, str]] = {
    "deployed": {
        NEEDS_TEST_HOOKS: "needs the test seeding router, which only the suite's own consoles mount",
    },
}
_DEPLOYED = f"({CORE} or {_SEEDED_OR_RUNTIME}) and not {NEEDS_TEST_HOOKS}"
# Lane name -> behave/cucumber tag expression. The lanes on the suite's own http consoles leave
# @https out; `full` is every scenario those can run.
LANES: Mapping[str, str | None] = {
    "pr": CORE,
    "post-merge": f"({_SEEDED_OR_RUNTIME}) and not {HTTPS}",
    "external": f"{EXTERNAL_MODEL} or {EXTERNAL_TOOL}",
    "a11y": _A11Y,
    "deployed": _DEPLOYED,
    "full": f"not {HTTPS}",
}


def excluded_expression(lane: str, tag: str) -> str:
    """The scenarios `lane` would run but for its exclusion `tag`."""
    included = str(LANES[lane]).replace(f" and not {tag}", "")
    return f"({included}) and {tag}"


def behave_args(lane: str) -> list[str]:
    """The behave command-line arguments that select a lane's scenarios."""
    if lane not in LANES:
        raise ValueError(f"unknown lane {lane!r}; lanes are: {', '.join(LANES)}")
    expression = LANES[lane]
    return [] if expression is None else [f"--tags={expression}"]


def combination_problems(tags: AbstractSet[str]) -> list[tuple[str, str]]:
    """Illegal combinations in a scenario's effective tags, as (rule, message) pairs."""
    problems: list[tuple[str, str]] = []
    clashing = sorted(tags & CORE_EXCLUSIVE_TAGS)
    if CORE in tags and clashing:
        message = (
            f"{CORE} cannot be combined with {', '.join(clashing)}: {CORE} is the deterministic PR lane; "
            f"drop {CORE} or the other tags"
        )
        problems.append(("core-exclusive", message))
    if not tags & EXECUTION_TAGS:
        message = f"no lane runs a scenario without an execution tag; add one of {', '.join(sorted(EXECUTION_TAGS))}"
        problems.append(("no-execution-tag", message))
    problems += _axe_problems(tags)
    keyboard_on_its_own = KEYBOARD in tags and not tags & POST_MERGE_TAGS
    if HTTPS in tags and (tags & {CORE, AXE} or keyboard_on_its_own):
        message = (
            f"{HTTPS} runs only in the deployed lane; {CORE}, {AXE} and {KEYBOARD} on its own run on http "
            "consoles: drop one"
        )
        problems.append(("https-exclusive", message))
    surfaces = sorted(tags & RUNTIME_SURFACE_TAGS)
    if surfaces and AGENT_BACKEND_RUNTIME not in tags:
        message = f"{', '.join(surfaces)} chats through the agent runtime; add {AGENT_BACKEND_RUNTIME}"
        problems.append(("surface-without-runtime", message))
    return problems


def rule_set(tags: AbstractSet[str]) -> tuple[str, ...]:
    """The axe rule tags an @axe scenario's rule-set tag chooses (its tags written with `@`)."""
    chosen = sorted(tags & RULE_SET_TAGS.keys())
    if len(chosen) != 1:
        raise ValueError(
            f"an {AXE} scenario needs exactly one of {', '.join(RULE_SET_TAGS)}; it has {chosen}"
        )
    return RULE_SET_TAGS[chosen[0]]


def _axe_problems(tags: AbstractSet[str]) -> list[tuple[str, str]]:
    problems: list[tuple[str, str]] = []
    rule_sets = sorted(tags & RULE_SET_TAGS.keys())
    if AXE in tags:
        clashing = sorted(tags & AXE_EXCLUSIVE_TAGS)
        if clashing:
            message = (
                f"{AXE} cannot be combined with {', '.join(clashing)}: the a11y lane scans pages on the "
                "embedded console, without seed, models or runtime"
            )
            problems.append(("axe-exclusive", message))
        if len(rule_sets) != 1:
            message = f"an {AXE} scenario chooses its rules with exactly one of {', '.join(RULE_SET_TAGS)}"
            problems.append(("axe-rule-set", message))
    elif rule_sets:
        message = f"{', '.join(rule_sets)} chooses the rules of an accessibility scan; add {AXE}"
        problems.append(("rule-set-without-axe", message))
    return problems


# -- what a step requires of the scenario that uses it ------------------------------------------

_NEEDS = "__e2e_needs__"
F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class StepNeeds:
    """The tags a scenario using the step must carry and the steps that must come before it."""

    tags: tuple[str, ...]
    steps: tuple[str, ...]
    why: str  # what the step does that needs them, for the linter's message

    def __call__(self, func: F) -> F:
        """Declare on a step definition, under behave's decorator: `@when(...)` then `@WEB_APP_CHAT`."""
        setattr(func, _NEEDS, self)
        return func


def needs_of(func: Callable[..., Any]) -> StepNeeds | None:
    """What a step definition declared (through wrappers such as the hooks' step checks)."""
    wrapped: Callable[..., Any] | None = func
    while wrapped is not None:
        declared: StepNeeds | None = getattr(wrapped, _NEEDS, None)
        if declared is not None:
            return declared
        wrapped = getattr(wrapped, "__wrapped__", None)
    return None


# A chat through the web app or the service API runs the agent on the runtime backend (post-merge).
WEB_APP_CHAT = StepNeeds(
    (AGENT_BACKEND_RUNTIME, WEB_APP_RUNTIME), (RUNTIME_READINESS_STEP,), "chats with the agent in its web app"
)
SERVICE_API_CHAT = StepNeeds(
    (AGENT_BACKEND_RUNTIME, SERVICE_API_RUNTIME),
    (RUNTIME_READINESS_STEP,),
    "chats with the agent through the service API",
)
# Faults are patches of the record/replay server, which only @external-model scenarios talk to.
PROVIDER_FAULT = StepNeeds((EXTERNAL_MODEL,), (), "sets a fault of the record/replay model server")
REPLAYED_CALLS = StepNeeds((EXTERNAL_MODEL,), (), "reads what the record/replay model server was sent")
# Keys pressed and focus asserted belong to @keyboard scenarios, so the a11y lane has them all.
KEYBOARD_USE = StepNeeds((KEYBOARD,), (), "uses the keyboard or asserts focus, which @keyboard scenarios do")
TEST_HOOKS = StepNeeds(
    (NEEDS_TEST_HOOKS,), (), "writes through the test seeding router, which deployments do not mount"
)
# Shared state only a console of the suite's own starts without (no tool credential): a deployment
# shares its console with the seeded fixtures, so the deployed lane leaves such scenarios out too.
FRESH_CONSOLE = StepNeeds(
    (NEEDS_TEST_HOOKS,), (), "needs a fresh console of the suite's own, which deployments are not"
)


def lane_name(tag_expression: str) -> str:
    """The named lane whose tags behave ran with (however it was invoked), else the expression."""
    if not tag_expression:
        return "full"
    for name, tags in LANES.items():
        if tags and str(make_tag_expression(tags)) == tag_expression:
            return name
    return tag_expression
