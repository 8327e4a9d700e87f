"""shellctl refuses to start without working isolation or with bad settings, naming the fix; with
--no-isolation it starts, says so at start and in /healthz."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import httpx
import pytest

from tests.product_services import agent_builder, workspaces_folder
from tests.shellctl.conftest import running_shellctl


def _start(workspaces: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run shellctl that is expected to stop at start (a started one would serve until killed)."""
    command = agent_builder("shellctl", "--port", "0", "--workspaces", str(workspaces), *args)
    return subprocess.run(
        command, capture_output=True, text=True, timeout=30, check=False, env={**os.environ, **env}
    )


def _bin_with(workspaces: Path, **tools: str) -> str:
    """A PATH of one folder holding `tools` (name: shell script body, or "" for the real tool),
    beside the workspaces, where a workspace's uid can reach it too."""
    folder = workspaces.parent / "bin"
    folder.mkdir()
    for name, script in tools.items():
        if script:
            (folder / name).write_text(f"#!/bin/sh\n{script}\n")
            (folder / name).chmod(0o755)
        else:
            (folder / name).symlink_to(shutil.which(name) or name)
    return str(folder)


def test_without_bubblewrap_it_refuses_to_start_naming_the_package() -> None:
    with workspaces_folder() as workspaces:
        result = _start(workspaces, PATH=_bin_with(workspaces, prlimit=""))
    assert result.returncode == 2
    assert "AGENT_BUILDER_READY" not in result.stdout
    assert "apt-get install bubblewrap" in result.stderr and "make setup" in result.stderr
    assert "--no-isolation" in result.stderr


def test_a_bubblewrap_that_cannot_sandbox_stops_the_start() -> None:
    broken = "echo 'bwrap: No permissions to creating new namespace' >&2; exit 1"
    with workspaces_folder() as workspaces:
        result = _start(workspaces, PATH=_bin_with(workspaces, prlimit="", bwrap=broken))
    assert result.returncode == 2
    assert "could not start a sandbox: bwrap: No permissions to creating new namespace" in result.stderr
    assert "user namespaces" in result.stderr


@pytest.mark.skipif(os.geteuid() != 0, reason="only shellctl run as root runs workspaces as other users")
def test_an_unreachable_workspaces_folder_stops_the_start(tmp_path: Path) -> None:
    result = _start(tmp_path / "ws")  # pytest's temporary folders are 0700: other uids cannot pass
    assert result.returncode == 2
    assert "not searchable by other users" in result.stderr and "chmod o+x" in result.stderr


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("AGENT_BUILDER_SANDBOX_MAX_PROCESSES", "many"),
        ("AGENT_BUILDER_SANDBOX_MEMORY_BYTES", "-1"),
        ("AGENT_BUILDER_SANDBOX_NETWORK", "yes"),
        ("AGENT_BUILDER_SHELLCTL_TOKEN", "short"),
    ],
)
def test_an_invalid_setting_stops_the_start_naming_it(name: str, value: str) -> None:
    with workspaces_folder() as workspaces:
        result = _start(workspaces, **{name: value})
    assert result.returncode == 2
    assert name in result.stderr
    if name == "AGENT_BUILDER_SHELLCTL_TOKEN":
        assert value not in result.stderr.replace(name, "")  # a token, even a bad one, is not logged


def test_no_isolation_warns_at_start_and_in_healthz(tmp_path: Path) -> None:
    with running_shellctl(tmp_path, "--no-isolation") as unconfined:
        assert httpx.get(f"{unconfined.process.url}/healthz").json() == {"status": "ok", "isolation": "none"}
        result = unconfined.exec("dev", "pwd; echo $HOME")
        folder = unconfined.folder("dev")
        assert result["stdout"] == f"{folder}\n{folder}\n"  # the host folder itself: no namespace
        assert "UNCONFINED" in unconfined.process.log_path.read_text()
