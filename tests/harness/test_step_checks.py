"""Under real behave, a step during which a model call missed fails with the miss: the check is
installed on the registry the runner matches steps with."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENVIRONMENT = """
from support.run import step_checks
from support.hooks import _step_registry
from support.replay.scope import Miss, ScopeReport

class Replay:
    def scope_so_far(self):
        miss = Miss(target="chat", call=0, key="agent#abc", call_site="agent", reason="no recorded entry matches",
                    request="user: hi", prompt="hi")
        return ScopeReport(scenario="S", cassette="features/cassettes/a/s.json", mode="replay", calls={}, misses=[miss])

class World:
    replay = Replay()
    replay_misses_shown = 0
    scenario_location = "features/a.feature:2"

def before_all(context):
    step_checks.install(_step_registry(context))

def before_scenario(context, scenario):
    context.world = World()
"""


def test_a_passing_step_that_saw_a_miss_fails_with_it(tmp_path: Path) -> None:
    (tmp_path / "features" / "steps").mkdir(parents=True)
    (tmp_path / "features" / "environment.py").write_text(ENVIRONMENT)
    (tmp_path / "features" / "steps" / "s.py").write_text(
        'from behave import when\n\n@when("I send a message")\ndef send(context): pass\n'
    )
    (tmp_path / "features" / "a.feature").write_text("Feature: F\n  Scenario: S\n    When I send a message\n")
    done = subprocess.run(
        [sys.executable, "-m", "behave", "--no-color", "-f", "plain"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    assert "When I send a message ... failed" in output
    assert "replay MISS: the chat call #0 matched no recording" in output
    assert "make record-cassettes ARGS='-n \"S\"'" in output
