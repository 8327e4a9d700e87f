"""`python -m deploy`: a deployment as an operator runs one, through Caddy over TLS at a host name,
probed with curl as a user would (`--resolve` and `--cacert`: no /etc/hosts, no system trust)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.console_api_setup import activate_model, publish_agent, signed_in, site_token
from tests.fakes.upstream import MODEL, FakeUpstream

SERVICES = ("shellctl", "runtime", "console", "caddy")


def deploy(action: str, folder: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "deploy", action, "--dir", str(folder), *extra]
    return subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False)


@pytest.fixture
def reachable_folder() -> Iterator[Path]:
    """A deployment folder shellctl's sandbox users can search (pytest's own are mode 0700)."""
    with tempfile.TemporaryDirectory(prefix="deployment-") as folder:
        os.chmod(folder, 0o711)
        yield Path(folder)


@pytest.fixture(scope="module")
def deployment() -> Iterator[dict[str, Any]]:
    with tempfile.TemporaryDirectory(prefix="deployment-") as name:
        os.chmod(name, 0o711)
        yield from _deployment(Path(name))


def _deployment(folder: Path) -> Iterator[dict[str, Any]]:
    up = deploy("up", folder, "--json")
    try:
        assert up.returncode == 0, up.stderr
        recipe = json.loads((folder / "deployment.json").read_text())
        yield json.loads(up.stdout) | recipe | {"dir": folder}
    finally:
        deploy("down", folder)


def alive(pid: int) -> bool:
    """Running: a zombie has ended and only waits for init to reap it."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


def curl(deployment: dict[str, Any], path: str, *args: str) -> tuple[str, dict[str, list[str]], str]:
    """The status line, headers and body of `GET path` through the proxy."""
    host, port = deployment["host"], deployment["ports"]["https"]
    done = subprocess.run(
        ["curl", "-sS", "-i", "--http2", "--resolve", f"{host}:{port}:127.0.0.1"]
        + ["--cacert", deployment["ca_root"], *args, f"{deployment['console']}{path}"],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    head, _, body = done.stdout.replace("\r\n", "\n").partition("\n\n")
    status, *lines = head.splitlines()
    headers: dict[str, list[str]] = {}
    for line in lines:
        name, _, value = line.partition(":")
        headers.setdefault(name.strip().lower(), []).append(value.strip())
    return status, headers, body


def test_the_web_app_answers_over_tls_and_http2_with_a_partitioned_visitor_cookie(
    deployment: dict[str, Any], fake_upstream: FakeUpstream
) -> None:
    password = Path(deployment["admin_password_file"]).read_text().strip()
    console = f"http://127.0.0.1:{deployment['ports']['console']}"  # the operator's side of the proxy
    with signed_in(console, "admin@example.com", password) as api:
        model = activate_model(api, "provider", fake_upstream.base_url, MODEL, "sk-deploy-test-0000")
        agent = publish_agent(api, model)

    status, headers, _ = curl(deployment, f"/chat/{site_token(agent)}")

    assert status.startswith("HTTP/2 200"), status
    [cookie] = headers["set-cookie"]
    attributes = {part.strip().lower() for part in cookie.split(";")[1:]}
    assert {"secure", "samesite=none", "partitioned", "httponly"} <= attributes, cookie
    assert agent["access"]["web_app_url"].startswith(f"{deployment['console']}/chat/")


def test_only_the_console_is_behind_the_proxy(deployment: dict[str, Any]) -> None:
    status, _, body = curl(deployment, "/healthz")
    assert status.startswith("HTTP/2 200") and json.loads(body) == {"status": "ok"}
    for path in ("/internal/knowledge/retrieve", "/runs", "/sessions/x/files"):
        assert curl(deployment, path)[0].startswith("HTTP/2 404"), path


def test_settings_files_hold_the_tokens_and_only_their_owner_reads_them(deployment: dict[str, Any]) -> None:
    folder: Path = deployment["dir"]
    for service in ("shellctl", "runtime", "console"):
        settings = folder / service / f"{service}.env"
        assert settings.stat().st_mode & 0o077 == 0, settings
    runtime = (folder / "runtime" / "runtime.env").read_text()
    console = (folder / "console" / "console.env").read_text()
    token = next(line for line in runtime.splitlines() if line.startswith("AGENT_BUILDER_RUNTIME_TOKEN="))
    assert token in console.splitlines()  # the console authenticates to the runtime with it
    assert "ENABLE_TEST_SEED" not in console  # nothing of the test harness


def test_down_leaves_no_process(reachable_folder: Path) -> None:
    up = deploy("up", reachable_folder)
    assert up.returncode == 0, up.stderr
    pids = [int((reachable_folder / s / f"{s}.pid").read_text().split()[0]) for s in SERVICES]
    assert deploy("status", reachable_folder).returncode == 0

    down = deploy("down", reachable_folder)

    assert down.returncode == 0, down.stderr
    assert [pid for pid in pids if alive(pid)] == []
    assert deploy("status", reachable_folder).returncode == 1


def test_a_wrong_setting_is_refused_before_anything_starts(tmp_path: Path) -> None:
    done = deploy("up", tmp_path / "new", "--set", "database.PASSWORD=x")
    assert done.returncode == 2
    assert "SERVICE.AGENT_BUILDER_VARIABLE=VALUE" in done.stderr
    assert not (tmp_path / "new").exists()
    assert os.listdir(tmp_path) == []
