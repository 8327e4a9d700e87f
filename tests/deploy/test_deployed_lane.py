"""The deployed lane as `make deployed` runs it: a deployment of its own behind Caddy, the lane
through TLS, and no process of the deployment left afterwards, whichever way the lane ends."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.deploy.test_deployment import SERVICES, alive
from tests.product_services import workspaces_folder

ROOT = Path(__file__).resolve().parents[2]


def environ(artifacts: Path) -> dict[str, str]:
    return {"PATH": os.environ["PATH"], "E2E_ARTIFACTS_DIR": str(artifacts), "E2E_TRACE": "off"}


def deployment_pids(artifacts: Path) -> list[int]:
    folder = artifacts / "deployed" / "deployment"
    return [int((folder / name / f"{name}.pid").read_text().split()[0]) for name in SERVICES]


@pytest.fixture
def artifacts() -> Iterator[Path]:
    """Artifacts where shellctl's workspaces are reachable by sandbox uids (pytest's tmp_path is not)."""
    with workspaces_folder() as workspaces:
        yield workspaces.parent


def start_until_deployed(artifacts: Path, *args: str) -> tuple[subprocess.Popen[str], list[str]]:
    """`make deployed` as a process, once its deployment is up; with what it printed so far."""
    process = subprocess.Popen(
        [sys.executable, "-m", "ci.deployed", *args],
        cwd=ROOT,
        env=environ(artifacts),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    lines = []
    for line in process.stderr:
        lines.append(line)
        if "deployment up at" in line:
            break
    return process, lines


def test_one_scenario_runs_through_the_proxy_and_the_deployment_goes_away(artifacts: Path) -> None:
    process, lines = start_until_deployed(artifacts, "--name", "^The roster shows the published version$")
    pids = deployment_pids(artifacts)
    _, rest = process.communicate(timeout=180)
    output = "".join(lines) + rest

    assert process.returncode == 0, output
    assert "1 scenarios: 1 passed" in output
    run = json.loads((artifacts / "deployed" / "report.json").read_text())["run"]
    assert run["base_url"].startswith("https://agents.e2e.test:"), run
    # The name selects a scenario the lane runs: nothing of it was left out.
    assert run["excluded"] == {
        "@needs-test-hooks: needs the test seeding router, which only the suite's own consoles mount": 0
    }
    assert [pid for pid in pids if alive(pid)] == []


def test_sigterm_takes_the_deployment_down(artifacts: Path) -> None:
    process, lines = start_until_deployed(artifacts)
    pids = deployment_pids(artifacts)
    process.send_signal(signal.SIGTERM)
    _, rest = process.communicate(timeout=60)
    output = "".join(lines) + rest

    assert process.returncode == 128 + signal.SIGTERM, output
    assert "interrupted by SIGTERM" in output and "deployment and replay server stopped" in output
    assert [pid for pid in pids if alive(pid)] == []
