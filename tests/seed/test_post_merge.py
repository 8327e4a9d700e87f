"""The post-merge orchestrator as `make post-merge` runs it: a real process tree, real exit codes,
and nothing left running afterwards, whichever way it ends."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from ci import stacks
from ci.lifecycle import EXIT_SERVICE_FAILED
from seed.runner import EXIT_BLOCKED
from support.settings import load_settings
from tests.product_services import workspaces_folder
from tests.seed.conftest import free_port

ROOT = Path(__file__).resolve().parents[2]
PID = re.compile(r"\(pid (\d+)")


def environ(artifacts: Path, **variables: str) -> dict[str, str]:
    return {
        "PATH": os.environ["PATH"],
        "E2E_ARTIFACTS_DIR": str(artifacts),
        "E2E_TRACE": "off",
        "E2E_WORKERS": "1",
        **variables,
    }


def worker_folder(artifacts: Path, worker: str = "w1") -> Path:
    return artifacts / "post-merge" / "workers" / worker


def process_groups_alive(pgids: set[int]) -> list[str]:
    """Processes (any descendant, not only the ones started) still in the given process groups."""
    alive = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            pid, rest = stat.read_text().split(" (", 1)
        except OSError:
            continue  # exited while we looked
        fields = rest.rsplit(") ", 1)[1].split()
        if fields[0] != "Z" and int(fields[2]) in pgids:
            alive.append(f"pid {pid} in group {fields[2]}")
    return alive


def started_pids(output: str) -> set[int]:
    return {int(pid) for pid in PID.findall(output)}


def run_orchestrator(env: dict[str, str], *behave_args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ci.post_merge", *behave_args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )


@pytest.fixture
def reachable_tmp() -> Iterator[Path]:
    """Artifacts where shellctl's workspaces are reachable by sandbox uids (pytest's tmp_path is not)."""
    with workspaces_folder() as workspaces:
        yield workspaces.parent


def test_a_blocked_seed_stops_the_run_before_behave_with_the_blocked_code(reachable_tmp: Path) -> None:
    env = environ(
        reachable_tmp,
        E2E_MODEL_MODE="live",
        E2E_STABLE_MODEL_BASE_URL=f"http://127.0.0.1:{free_port()}/v1",  # nothing listens there
        E2E_STABLE_MODEL_API_KEY="sk-e2e-orchestrator-test-KEY-0123456789",
        E2E_START_AGENT_BACKEND="1",
        E2E_AGENT_BACKEND_PORT=str(free_port()),
        E2E_SHELLCTL_PORT=str(free_port()),
    )
    result = run_orchestrator(env)
    output = result.stdout + result.stderr
    assert result.returncode == EXIT_BLOCKED, output
    assert "the lane does not run" in output and "scenario run(s) on" not in output
    # The lane never ran, and its reports say why, as the exit code does.
    lane_report = json.loads((reachable_tmp / "post-merge" / "report.json").read_text())
    assert lane_report["scenarios"] == []
    [first, *_] = lane_report["lane_failures"]
    assert first["kind"] == "seed-blocked" and "owner seed/model-provider" in first["message"]
    assert "make seed PROFILE=post-merge" in first["fix"]
    assert "[seed-blocked]" in output
    junit = (reachable_tmp / "post-merge" / "junit" / "post-merge.xml").read_text()
    assert 'testsuite name="lane"' in junit and "seed-blocked" in junit
    folder = worker_folder(reachable_tmp)
    report = json.loads((folder / "seed-report" / "post-merge.json").read_text())
    assert report["results"][0]["status"] == "blocked"
    assert {"replay.log", "shellctl.log", "runtime.log", "console.log"} <= {
        path.name for path in (folder / "services").iterdir()
    }
    assert "startup stages: w1 replay" in output and "seed" in output
    pids = started_pids(output)
    assert len(pids) == 4, output
    assert process_groups_alive(pids) == []
    logs = [path.read_text() for path in (folder / "services").iterdir()]
    assert all("sk-e2e-orchestrator-test-KEY" not in text for text in [output, *logs])


def test_sigterm_tears_everything_down(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "ci.post_merge"],
        cwd=ROOT,
        env=environ(tmp_path),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    lines = []
    for line in process.stderr:
        lines.append(line)
        if "console ready" in line:
            break
    process.send_signal(signal.SIGTERM)
    _, rest = process.communicate(timeout=60)
    output = "".join(lines) + rest
    assert process.returncode == 128 + signal.SIGTERM, output
    assert "interrupted by SIGTERM" in output and "all services stopped" in output
    pids = started_pids(output)
    assert len(pids) == 2, output
    assert process_groups_alive(pids) == []


def test_a_lane_that_selects_nothing_fails_the_gate_without_starting_a_stack(tmp_path: Path) -> None:
    result = run_orchestrator(environ(tmp_path), "--name", "^no scenario is called this$")
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "executed zero scenarios" in output and " ready in " not in output
    report = json.loads((tmp_path / "post-merge" / "report.json").read_text())
    assert [failure["kind"] for failure in report["lane_failures"]] == ["zero-scenarios"]


def test_the_lane_runs_against_the_started_services_and_its_status_is_the_exit_code(tmp_path: Path) -> None:
    result = run_orchestrator(environ(tmp_path), "--name", "^The roster shows the published version$")
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "1 scenarios: 1 passed" in output
    console = re.search(r"w1 console ready in \S+ at (\S+)", output)
    worker_log = (worker_folder(tmp_path) / "behave.log").read_text()
    assert console is not None and f"target {console[1]} (E2E_BASE_URL)" in worker_log
    assert (
        json.loads((worker_folder(tmp_path) / "seed-report" / "post-merge.json").read_text())["blocked"] == 0
    )
    pids = started_pids(output)
    assert len(pids) == 3, output  # replay, console, the worker
    assert process_groups_alive(pids) == []


def test_a_service_that_cannot_start_is_reported_with_its_log(tmp_path: Path) -> None:
    with socket.socket() as taken:  # shellctl's port is taken
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        env = environ(tmp_path, E2E_START_AGENT_BACKEND="1", E2E_SHELLCTL_PORT=str(taken.getsockname()[1]))
        result = run_orchestrator(env)
    output = result.stdout + result.stderr
    assert result.returncode == EXIT_SERVICE_FAILED, output
    # The orchestrator binds shellctl's socket itself (the runtime is told its URL before it starts).
    assert f"shellctl cannot listen on 127.0.0.1:{env['E2E_SHELLCTL_PORT']}" in output
    assert process_groups_alive(started_pids(output)) == []


@dataclass
class _Recorded:
    name: str
    env: dict[str, str]
    argv: list[str]
    pass_fds: list[int]


def test_every_stack_gets_fresh_shellctl_and_runtime_tokens_and_the_runtime_its_service_urls(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    launched: list[_Recorded] = []

    def record(
        name: str,
        argv: list[str],
        *,
        ready_prefix: str,
        log_path: Path,
        env: dict[str, str],
        pass_fds: tuple[int, ...] = (),
    ) -> _Recorded:
        launched.append(_Recorded(name, dict(env or {}), list(argv), list(pass_fds)))
        return launched[-1]

    monkeypatch.setattr(stacks, "launch_service", record)
    settings = load_settings(
        {"E2E_START_AGENT_BACKEND": "1", "E2E_ARTIFACTS_DIR": str(tmp_path)}, env_file=None
    )
    tokens = []
    for worker_id in ("w1", "w2"):
        worker = stacks.WorkerStack(worker_id, tmp_path / worker_id)
        console = worker.console_socket = stacks.listen("console")
        console_fd = console.fd  # the socket is closed here once handed over
        stacks.backend_launches(settings, worker)
        worker.urls = {"shellctl": "http://shellctl.test", "runtime": "http://runtime.test"}
        stacks.console_launch(settings, worker)
        runs = {recorded.name: recorded for recorded in launched[-4:]}
        envs = {name: recorded.env for name, recorded in runs.items()}
        token = envs["shellctl"]["AGENT_BUILDER_SHELLCTL_TOKEN"]
        assert len(token) >= 32
        assert envs["runtime"]["AGENT_BUILDER_SHELLCTL_TOKEN"] == token
        assert envs["console"]["AGENT_BUILDER_SHELLCTL_TOKEN"] == token
        assert "AGENT_BUILDER_SHELLCTL_TOKEN" not in envs["replay"]
        runtime_token = envs["runtime"]["AGENT_BUILDER_RUNTIME_TOKEN"]
        assert len(runtime_token) >= 32 and runtime_token != token
        assert envs["console"]["AGENT_BUILDER_RUNTIME_TOKEN"] == runtime_token
        assert "AGENT_BUILDER_RUNTIME_TOKEN" not in envs["shellctl"]
        assert token not in repr(worker) and runtime_token not in repr(worker)
        # The runtime is told where shellctl and the console will be: the sockets they are handed.
        assert envs["runtime"]["AGENT_BUILDER_RUNTIME_CONSOLE_URL"] == console.url
        shellctl_fd = runs["shellctl"].pass_fds[0]
        assert runs["shellctl"].argv[runs["shellctl"].argv.index("--fd") + 1] == str(shellctl_fd)
        assert runs["console"].pass_fds == [console_fd] and "--fd" in runs["console"].argv
        assert envs["runtime"]["AGENT_BUILDER_RUNTIME_SHELLCTL_URL"].startswith("http://127.0.0.1:")
        assert worker.console_socket is None  # handed over: the console serves it
        tokens.append((token, runtime_token))
    assert tokens[0][0] != tokens[1][0] and tokens[0][1] != tokens[1][1]


def test_ci_workflows_only_call_make_targets() -> None:
    workflows = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
    assert [path.stem for path in workflows] == ["external", "mutants", "post-merge", "pr"]
    for path in workflows:
        commands = re.findall(r"^\s*- run: (.+)$", path.read_text(), flags=re.MULTILINE)
        assert commands and all(command.startswith("make ") for command in commands), (path, commands)
