"""The step linter: what a step's body must not do (sleep, call the console, build a locator),
and its trailing allowances."""

from __future__ import annotations

import textwrap
from pathlib import Path

from support.lint.features import lint_paths
from support.lint.step_code import check_step_code
from tests.harness.lint_project import CLEAN, write_feature

FORBIDDEN = """
import asyncio
import time
import time as clock
from time import sleep as nap

from behave import then


@then("the agent is settled")
def settled(context):
    world = context.world
    time.sleep(2)
    clock.sleep(1)
    nap(1)
    asyncio.sleep(1)
    world.page.wait_for_timeout(2000)
    world.console.get_agent("a")
    context.world.console.list_tools()
    world.page.get_by_role("button", name="Save").click()
    world.page.locator("pre").last
"""

ALLOWED = """
from behave import then


@then("the agent is fine")
def fine(context):
    world = context.world
    seeded_model(world.console, world.settings, "stable")  # handing the client to support/ is fine
    print(world.console_url)
    ConfigurePage(world.page).save()
"""


def write_steps(project: Path, text: str, name: str = "zz_more.py") -> str:
    text = textwrap.dedent(text).lstrip("\n")
    (project / "steps" / name).write_text(text)
    return text


def lines_of(text: str, needle: str) -> list[int]:
    return [number for number, line in enumerate(text.splitlines(), start=1) if needle in line]


def test_sleeps_console_calls_and_locators_are_reported_at_their_line(project: Path) -> None:
    text = write_steps(project, FORBIDDEN)
    problems = check_step_code(project / "steps")
    sleeps = ("time.sleep", "clock.sleep", "nap(", "asyncio.sleep", "wait_for_timeout")
    expected = [("step-sleep", line) for needle in sleeps for line in lines_of(text, needle)]
    expected += [("step-console-call", line) for line in lines_of(text, ".console.")]
    expected += [
        ("step-locator", line) for line in lines_of(text, "get_by_role") + lines_of(text, "locator(")
    ]
    assert sorted((p.rule, p.line) for p in problems) == sorted(expected)
    assert {p.path for p in problems} == {"steps/zz_more.py"}
    [sleep] = [p for p in problems if p.line == lines_of(text, "time.sleep(2)")[0]]
    assert sleep.message.startswith("time.sleep(...) waits a fixed time: a fixed wait is too short")
    assert "`# lint: allow step-sleep -- <why>`" in sleep.message
    [console] = [p for p in problems if p.line == lines_of(text, "get_agent")[0]]
    assert "world.console.get_agent calls the console API: a step reaches the console API only through " in (
        console.message
    )
    [locator] = [p for p in problems if p.rule == "step-locator" and "get_by_role" in p.message]
    assert "locators live in the page objects of support/ui/" in locator.message


def test_page_objects_and_handing_the_console_to_support_are_fine(project: Path) -> None:
    write_steps(project, ALLOWED)
    assert check_step_code(project / "steps") == []


def test_the_feature_linter_reports_them(project: Path) -> None:
    write_feature(project, CLEAN)
    write_steps(project, FORBIDDEN)
    rules = {p.rule for p in lint_paths([Path("features")])}
    assert {"step-sleep", "step-console-call", "step-locator"} <= rules


def test_a_trailing_allowance_with_a_reason_allows_its_line(project: Path) -> None:
    text = write_steps(
        project,
        """
        import time

        def wait(context):
            time.sleep(2)  # lint: allow step-sleep -- the fake upstream's clock needs two real seconds
            time.sleep(3)  # lint: allow step-sleep
            print("nothing")  # lint: allow step-locator -- stale
        """,
    )
    problems = check_step_code(project / "steps")
    # An allowance without a reason is reported instead of the use it names.
    assert [(p.rule, p.line) for p in problems] == [
        ("step-allowance", lines_of(text, "sleep(3)")[0]),
        ("step-allowance", lines_of(text, "nothing")[0]),
    ]
    assert "`# lint: allow step-sleep` gives no reason: add ` -- <why" in problems[0].message
    assert "`# lint: allow step-locator` allows nothing on this line: remove it" in problems[1].message
