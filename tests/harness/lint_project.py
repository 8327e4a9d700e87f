"""A small project for the feature linter's tests: a steps folder and a features folder."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from support.lint.features import lint_paths

STEPS = """
from behave import given, when, then
from support.tags import KEYBOARD_USE, WEB_APP_CHAT

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

@when("I open the agent {string}")
def open_agent(context, name): pass

@then("the agent is listed")
def listed(context): pass

@then("the agent is shown")
def shown(context): pass

@then("the agent is gone from the list")
def gone(context): pass

@when("I send the message {string}")
@WEB_APP_CHAT
def send(context, text): pass

@then("the page has no accessibility violations")
def accessible(context): pass

@when("I press Enter")
@KEYBOARD_USE
def press_enter(context): pass

@given("the browser denies microphone access")
def deny_microphone(context): pass
"""

CLEAN = """
@core
Feature: Roster
  Scenario: Open an agent
    Given a basic configured agent has been created via API
    When I open the agent "Support"
    Then the agent is listed
"""


def make_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project root with a steps dir; the cwd, so problems show relative paths."""
    (tmp_path / "steps").mkdir()
    (tmp_path / "steps" / "roster.py").write_text(STEPS)
    (tmp_path / "features").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project root with a steps dir; the cwd, so problems show relative paths."""
    return make_project(tmp_path, monkeypatch)


def write_feature(project: Path, text: str, name: str = "x.feature") -> str:
    text = textwrap.dedent(text).lstrip("\n")
    (project / "features" / name).write_text(text)
    return text


def line_of(text: str, needle: str, occurrence: int = 1) -> int:
    lines = [number for number, line in enumerate(text.splitlines(), start=1) if needle in line]
    return lines[occurrence - 1]


def found(project: Path) -> list[tuple[str, int]]:
    return [(problem.rule, problem.line) for problem in lint_paths([Path("features")])]
