"""The worker pool against a tiny behave project: every scenario runs once, results stream back,
a worker that dies or never starts fails the lane loudly, and nothing is lost or left running."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from support.lanes.coordinator import WORKER_GRACE_S, run_pool
from support.lanes.plan import plan_lane
from support.settings import Settings, load_settings

ROOT = Path(__file__).resolve().parents[2]

STEPS = """
import os, signal, time
from pathlib import Path
from behave import step

@step("it passes")
def passes(context):
    pass

@step("it fails")
def fails(context):
    raise AssertionError("failed on purpose")

@step("the worker dies")
def dies(context):
    os.kill(os.getpid(), signal.SIGKILL)

@step("it runs until stopped")
def runs_until_stopped(context):
    Path("running").touch()  # tells the test the scenario has started
    time.sleep(600)

@step("it ignores SIGTERM and runs until killed")
def ignores_sigterm(context):
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    Path("running").touch()
    time.sleep(600)

@step("both workers are running a scenario")
def barrier(context):
    # A real barrier, not a guess about timing: each of two scenarios waits until two different
    # workers have reached it, which only happens if they really run side by side.
    marker = Path("markers") / os.environ["E2E_WORKER_ID"]
    marker.parent.mkdir(exist_ok=True)
    marker.touch()
    deadline = time.monotonic() + 60
    while len(list(marker.parent.iterdir())) < 2:
        assert time.monotonic() < deadline, "the other worker never started a scenario"
        time.sleep(0.05)
"""

# The suite's real hooks need a console and a browser; these report results the same way.
ENVIRONMENT = """
import os
from dataclasses import asdict
from support.reports import ScenarioResult, StepResult, scenario_to_dict
from support.run.record import step_definitions

def before_all(context):
    if os.environ.get("POOL_TEST_BROKEN_WORKER") == os.environ["E2E_WORKER_ID"]:
        raise RuntimeError("this worker cannot start")
    definitions = step_definitions(context._runner.step_registry)
    context.pool_link.report_definitions([asdict(definition) for definition in definitions])

def after_scenario(context, scenario):
    status = "passed" if scenario.status.name == "passed" else "failed"
    context.pool_link.report(scenario_to_dict(ScenarioResult(
        feature_name=scenario.feature.name, feature_path=scenario.filename, name=scenario.name,
        line=scenario.line, tags=[str(tag) for tag in scenario.effective_tags], status=status,
        duration_s=scenario.duration,
        steps=[StepResult(s.keyword, s.name, s.status.name, s.duration, s.error_message) for s in scenario.steps],
        worker_id=os.environ["E2E_WORKER_ID"], attempt=context.pool_link.current.attempt,
    )))
"""


def feature(*scenarios: tuple[str, str]) -> str:
    body = "".join(f"\n  Scenario: {name}\n    Given {step}\n" for name, step in scenarios)
    return f"@core\nFeature: Demo\n{body}"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "features").mkdir()
    (tmp_path / "steps").mkdir()
    (tmp_path / "behave.ini").write_text("[behave]\npaths = features\n")
    (tmp_path / "steps" / "steps.py").write_text(textwrap.dedent(STEPS))
    (tmp_path / "environment.py").write_text(textwrap.dedent(ENVIRONMENT))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    return tmp_path


def settings(project: Path) -> Settings:
    return load_settings(
        {"E2E_ARTIFACTS_DIR": str(project / "artifacts"), "E2E_RUN_ID": "pool1"}, env_file=None
    )


def report(project: Path) -> dict:
    return json.loads((project / "artifacts" / "pr" / "report.json").read_text())


def test_every_scenario_runs_exactly_once_across_the_workers(project: Path) -> None:
    names = [f"Scenario {number}" for number in range(6)]
    steps = ["both workers are running a scenario"] * 2 + ["it passes"] * 4
    (project / "features" / "demo.feature").write_text(feature(*zip(names, steps, strict=True)))
    plan = plan_lane("pr", durations={})
    assert run_pool(plan, settings(project), workers=2) == 0
    scenarios = report(project)["scenarios"]
    assert sorted(scenario["name"] for scenario in scenarios) == names
    assert {scenario["worker_id"] for scenario in scenarios} == {"w1", "w2"}
    assert report(project)["run"]["workers"] == 2 and report(project)["lane_failures"] == []
    # Each worker sent what it loaded; the lane's report (and its messages) has each definition once.
    assert sorted(definition["text"] for definition in report(project)["definitions"]) == sorted(
        ["it passes", "it fails", "the worker dies", "it runs until stopped",
         "it ignores SIGTERM and runs until killed", "both workers are running a scenario"]
    )  # fmt: skip
    assert (project / "artifacts" / "pr" / "junit" / "pr.xml").is_file()
    assert (project / "artifacts" / "pr" / "workers" / "w1" / "behave.log").is_file()


def test_repeat_runs_each_scenario_n_times_and_a_single_failure_fails_the_lane(project: Path) -> None:
    (project / "features" / "demo.feature").write_text(
        feature(("Steady", "it passes"), ("Broken", "it fails"))
    )
    plan = plan_lane("pr", repeat=3, durations={})
    assert run_pool(plan, settings(project), workers=2) == 1
    attempts = sorted((scenario["name"], scenario["attempt"]) for scenario in report(project)["scenarios"])
    assert attempts == [
        ("Broken", 1),
        ("Broken", 2),
        ("Broken", 3),
        ("Steady", 1),
        ("Steady", 2),
        ("Steady", 3),
    ]


def test_stop_hands_out_nothing_after_the_first_failure(project: Path) -> None:
    (project / "features" / "demo.feature").write_text(
        feature(("Broken", "it fails"), ("First after", "it passes"), ("Second after", "it passes"))
    )
    durations = {"features/demo.feature::Broken": 9.0, "features/demo.feature::First after": 2.0}
    durations["features/demo.feature::Second after"] = 1.0
    plan = plan_lane("pr", durations=durations, stop=True)  # longest first: Broken, then the others

    assert run_pool(plan, settings(project), workers=1) == 1

    assert [(s["name"], s["status"]) for s in report(project)["scenarios"]] == [("Broken", "failed")]
    assert report(project)["lane_failures"] == []  # the rest were not lost: they were not wanted


def test_a_killed_worker_fails_the_lane_naming_its_scenario_and_the_rest_still_run(
    project: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    scenarios = [("Dies", "the worker dies"), *((f"Survivor {n}", "it passes") for n in range(4))]
    (project / "features" / "demo.feature").write_text(feature(*scenarios))
    # "Dies" is recorded as the longest, so it is handed out first.
    plan = plan_lane("pr", durations={"features/demo.feature::Dies": 60.0})
    assert run_pool(plan, settings(project), workers=2) == 1
    result = report(project)
    by_name = {scenario["name"]: scenario for scenario in result["scenarios"]}
    assert sorted(by_name) == ["Dies", *(f"Survivor {n}" for n in range(4))]
    assert by_name["Dies"]["status"] == "error" and "killed by SIGKILL" in by_name["Dies"]["error"]
    assert all(by_name[f"Survivor {n}"]["status"] == "passed" for n in range(4))
    (died,) = result["lane_failures"]
    assert died["kind"] == "worker-died" and "features/demo.feature:4 Dies" in died["message"]
    assert "worker-died" in capfd.readouterr().err


def test_a_worker_that_cannot_start_is_reported_and_the_others_do_its_share(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POOL_TEST_BROKEN_WORKER", "w2")
    (project / "features" / "demo.feature").write_text(feature(*((f"S{n}", "it passes") for n in range(3))))
    assert run_pool(plan_lane("pr", durations={}), settings(project), workers=2) == 1
    result = report(project)
    assert sorted(scenario["name"] for scenario in result["scenarios"]) == ["S0", "S1", "S2"]
    (failure,) = result["lane_failures"]
    assert failure["kind"] == "worker-failed-to-start" and "this worker cannot start" in failure["message"]


def test_when_no_worker_is_left_the_unrun_scenarios_are_listed(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POOL_TEST_BROKEN_WORKER", "w1")
    (project / "features" / "demo.feature").write_text(feature(("Never runs", "it passes")))
    assert run_pool(plan_lane("pr", durations={}), settings(project), workers=1) == 1
    kinds = {failure["kind"]: failure["message"] for failure in report(project)["lane_failures"]}
    assert set(kinds) == {"worker-failed-to-start", "not-run"}
    assert "features/demo.feature:4 Never runs" in kinds["not-run"]


def test_a_lane_that_selects_nothing_fails_the_zero_scenario_gate(project: Path) -> None:
    (project / "features" / "demo.feature").write_text(feature(("Only", "it passes")))
    plan = plan_lane("pr", ["--name", "no such scenario"], durations={})
    assert run_pool(plan, settings(project), workers=2) == 1
    assert [failure["kind"] for failure in report(project)["lane_failures"]] == ["zero-scenarios"]
    assert not (project / "artifacts" / "pr" / "workers").exists()  # no worker was started for nothing


def test_no_worker_process_outlives_the_lane(project: Path) -> None:
    (project / "features" / "demo.feature").write_text(
        feature(("One", "it passes"), ("Two", "the worker dies"))
    )
    run_pool(plan_lane("pr", durations={}), settings(project), workers=2)
    log = (project / "artifacts" / "pr" / "workers" / "w1" / "behave.log").read_text()
    assert "USING RUNNER" in log
    alive = [
        cmdline
        for cmdline in (path.read_bytes() for path in Path("/proc").glob("[0-9]*/cmdline") if path.exists())
        if b"support.lanes.worker" in cmdline and str(project).encode() in cmdline
    ]
    assert alive == [] or all(os.path.exists(project) for _ in alive) and alive == []


# The coordinator as a user runs it: its own process, so the test can signal it.
LANE_PROCESS = """
import sys
from support.lanes.coordinator import run_pool
from support.lanes.plan import plan_lane
from support.settings import load_settings
settings = load_settings({"E2E_ARTIFACTS_DIR": "artifacts", "E2E_RUN_ID": "pool1"}, env_file=None)
sys.exit(run_pool(plan_lane("pr", durations={}), settings, workers=1))
"""


def _start_lane_and_wait_for_its_scenario(project: Path) -> subprocess.Popen[bytes]:
    process = subprocess.Popen([sys.executable, "-c", LANE_PROCESS], cwd=project, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not (project / "running").exists():
        assert process.poll() is None, process.stderr.read() if process.stderr else ""
        assert time.monotonic() < deadline, "the scenario never started"
        time.sleep(0.05)
    return process


def test_an_interrupted_lane_exits_once_its_workers_have_stopped(project: Path) -> None:
    (project / "features" / "demo.feature").write_text(feature(("Long", "it runs until stopped")))
    process = _start_lane_and_wait_for_its_scenario(project)
    process.send_signal(signal.SIGTERM)
    # The worker stops at once; the lane must not then wait out the kill timer's grace period.
    assert process.wait(timeout=WORKER_GRACE_S / 2) == 128 + signal.SIGTERM
    assert report(project)["scenarios"][0]["status"] == "error"  # reported, not lost


def test_a_second_signal_kills_a_worker_that_ignores_the_first(project: Path) -> None:
    (project / "features" / "demo.feature").write_text(
        feature(("Stubborn", "it ignores SIGTERM and runs until killed"))
    )
    process = _start_lane_and_wait_for_its_scenario(project)
    assert process.stderr is not None
    process.send_signal(signal.SIGINT)
    # Two signals sent at once can arrive as one: send the second once the first was handled.
    for line in process.stderr:
        if b"SIGINT: stopping the workers" in line:
            break
    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=WORKER_GRACE_S / 2) == 128 + signal.SIGINT
    assert b"second signal: killing the workers" in process.stderr.read()
