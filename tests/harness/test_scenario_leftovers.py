"""Under real behave and the suite's own hooks (an embedded console, a browser), a scenario that
leaves a resource behind fails itself, whatever the resource is called, and the rerun file
names it; a scenario that cleans up after itself passes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FEATURE = """@core
Feature: Leftovers
  Scenario: A step forgets what it made
    When a step makes an agent it never cleans up

  Scenario: A step cleans up after itself
    When a step makes an agent and registers its cleanup
"""
STEPS = """
from behave import when


@when("a step makes an agent it never cleans up")
def forgets(context):
    context.world.console.create_agent("Hand-made agent without the run's name")


@when("a step makes an agent and registers its cleanup")
def cleans_up(context):
    world = context.world
    agent = world.console.create_agent("Another hand-made agent")
    world.register_cleanup(lambda: world.console.delete_agent(agent.id), "the agent")
"""


def test_a_scenario_that_leaves_a_resource_behind_fails_and_is_rerun(tmp_path: Path) -> None:
    features = tmp_path / "features"
    (features / "steps").mkdir(parents=True)
    shutil.copy(ROOT / "environment.py", features / "environment.py")
    (features / "leftovers.feature").write_text(FEATURE)
    (features / "steps" / "leftovers.py").write_text(STEPS)
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "E2E_ARTIFACTS_DIR": str(tmp_path / "artifacts"),
        "E2E_TRACE": "off",
    }
    done = subprocess.run(
        [sys.executable, "-m", "behave", "--tags=@core", str(features)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    output = done.stdout + done.stderr
    assert done.returncode != 0, output
    assert 'left behind after its cleanup: agent "Hand-made agent without the run\'s name"' in output, output
    rerun = (tmp_path / "artifacts" / "rerun.txt").read_text().splitlines()
    assert [line for line in rerun if not line.startswith("#")] == ["features/leftovers.feature:3"]
