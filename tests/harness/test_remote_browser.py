"""E2E_BROWSER_WS_ENDPOINT: a scenario runs in a browser served by `playwright launch-server`."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from support.browser.session import CHROMIUM_ARGS, SYSTEM_CHROMIUM_NAMES
from support.stack import die_with_parent

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = "Signing in with the admin credentials opens the agent roster"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def browser_server(tmp_path: Path) -> Iterator[str]:
    chromium = next(filter(None, (shutil.which(name) for name in SYSTEM_CHROMIUM_NAMES)), None)
    assert chromium, "make setup installs Chromium"
    port = _free_port()
    config = tmp_path / "server.json"
    config.write_text(
        json.dumps({"executablePath": chromium, "port": port, "wsPath": "/pw", "args": CHROMIUM_ARGS})
    )
    argv = [str(Path(sys.executable).parent / "playwright"), "launch-server", "--browser", "chromium"]
    # Its own process group, stopped as a whole: the CLI runs the server (node) as a child,
    # and the server owns the browser.
    server = subprocess.Popen(
        die_with_parent([*argv, "--config", str(config)]),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    assert server.stdout is not None
    try:
        # The server prints its endpoint once it listens.
        for line in server.stdout:
            if "ws://" in line:
                break
        else:
            pytest.fail(f"playwright launch-server exited with {server.wait()}")
        yield f"ws://127.0.0.1:{port}/pw"
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=20)


def test_a_scenario_runs_in_a_remote_browser(browser_server: str, tmp_path: Path) -> None:
    env = {
        **os.environ,
        "E2E_BROWSER_WS_ENDPOINT": browser_server,
        "E2E_ARTIFACTS_DIR": str(tmp_path),
        "E2E_TRACE": "off",
    }
    result = subprocess.run(
        [sys.executable, "-m", "support.lanes", "pr", "--workers", "1", "-n", f"^{SCENARIO}$"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "1 scenarios: 1 passed" in result.stderr
    worker_log = (tmp_path / "pr" / "workers" / "w1" / "behave.log").read_text()
    assert f"browser remote {browser_server}" in worker_log
