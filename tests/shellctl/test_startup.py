"""shellctl refuses to start without working isolation or with bad settings, naming the fix; with
--no-isolation it starts, says so at start and in /healthz."""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import sqlite3
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from agent_builder.shellctl.config import ShellctlConfig
from agent_builder.shellctl.uid_range import RECORD
from tests.product_services import agent_builder, workspaces_folder
from tests.shellctl.conftest import host_processes, none_left, running_shellctl


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
        ("AGENT_BUILDER_SANDBOX_MAX_PROCESSES_PER_OWNER", "many"),
        ("AGENT_BUILDER_SANDBOX_MAX_PROCESSES", "64"),  # renamed when it came to count per owner
        ("AGENT_BUILDER_SANDBOX_WORKSPACE_BYTES", "1000"),  # too small for a file system
        ("AGENT_BUILDER_SANDBOX_IDLE_SECONDS", "0"),
        ("AGENT_BUILDER_SANDBOX_MEMORY_BYTES", "-1"),
        ("AGENT_BUILDER_SANDBOX_NETWORK", "yes"),
        ("AGENT_BUILDER_SANDBOX_UID_BASE", str(1 << 31)),  # bwrap cannot map uids past 2^31 - 1
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


@pytest.mark.skipif(os.geteuid() != 0, reason="only shellctl run as root gives workspaces a disk quota")
def test_a_disk_quota_that_cannot_be_mounted_stops_the_start() -> None:
    broken = "echo 'mount: /w: failed to setup loop device for /w.ext4.' >&2; exit 32"
    with workspaces_folder() as workspaces:
        result = _start(workspaces, PATH=_bin_with(workspaces, prlimit="", bwrap="", mount=broken))
        # Only shellctl's own notes are left, no workspace: the index and the uid range.
        assert {path.name for path in workspaces.iterdir()} <= {".index.sqlite3", RECORD}
    assert result.returncode == 2
    assert "making one failed: mount: /w: failed to setup loop device for /w.ext4. Run" in result.stderr
    assert "AGENT_BUILDER_SANDBOX_WORKSPACE_BYTES=0" in result.stderr


def test_no_isolation_warns_at_start_and_in_healthz(tmp_path: Path) -> None:
    with running_shellctl(tmp_path, "--no-isolation") as unconfined:
        quota = (100 << 20) if os.geteuid() == 0 else None  # its workspaces have one as well
        health = httpx.get(f"{unconfined.process.url}/healthz").json()
        assert health == {"status": "ok", "isolation": "none", "workspace_bytes": quota}
        result = unconfined.exec("dev", "pwd; echo $HOME")
        folder = unconfined.folder("dev")
        assert result["stdout"] == f"{folder}\n{folder}\n"  # the host folder itself: no namespace
        assert "UNCONFINED" in unconfined.process.log_path.read_text()


def test_workspaces_of_an_earlier_layout_are_removed_at_start(tmp_path: Path) -> None:
    """An index from before uids per owner and disk quotas: whose files are whose is unknown."""
    old_folder = "ab" * 16
    with workspaces_folder() as workspaces:
        (workspaces / old_folder).mkdir(parents=True)
        (workspaces / old_folder / "notes.txt").write_text("old")
        index = sqlite3.connect(workspaces / ".index.sqlite3")
        index.execute(
            "CREATE TABLE workspaces (serial INTEGER PRIMARY KEY AUTOINCREMENT, owner TEXT NOT NULL, "
            "session TEXT NOT NULL, folder TEXT NOT NULL UNIQUE, UNIQUE (owner, session))"
        )
        index.execute(
            "INSERT INTO workspaces (owner, session, folder) VALUES ('agent-1', 's1', ?)", (old_folder,)
        )
        index.commit()
        index.close()
        with running_shellctl(tmp_path, workspaces=workspaces, name="upgraded") as upgraded:
            assert not (workspaces / old_folder).exists()
            assert upgraded.exec("s1", "ls -A", owner="agent-1")["stdout"] == ""
            log = upgraded.process.log_path.read_text()
    assert "1 workspaces of an earlier layout removed" in log


@pytest.mark.skipif(os.geteuid() != 0, reason="only shellctl run as root gives workspaces a disk quota")
def test_a_restart_unmounts_what_a_killed_shellctl_left_mounted(tmp_path: Path) -> None:
    marker = f"300.{secrets.randbelow(10**9):09d}"
    with workspaces_folder() as workspaces:
        with (
            running_shellctl(tmp_path, workspaces=workspaces, name="killed") as killed,
            ThreadPoolExecutor(1) as pool,
        ):
            running = pool.submit(killed.exec, "s1", f"sleep {marker}", 40)
            deadline = time.monotonic() + 10
            while not host_processes(f"sleep {marker}"):  # the command runs: its workspace is mounted
                assert time.monotonic() < deadline and not running.done()
                time.sleep(0.05)
            killed.process.process.kill()  # SIGKILL: no shutdown of its own
            with pytest.raises(httpx.TransportError):
                running.result()
        folder = killed.folder("s1")
        try:
            assert folder is not None and os.path.ismount(folder)
            with running_shellctl(tmp_path, workspaces=workspaces, name="restarted") as restarted:
                assert not os.path.ismount(folder)
                assert restarted.exec("s1", "ls -A")["stdout"] == ""
        finally:
            _kill_sandbox_of(marker)


def test_a_stop_unmounts_the_workspace_of_a_command_still_running(tmp_path: Path) -> None:
    """A graceful stop gives up on a request after a few seconds; its workspace must not stay
    mounted on the host after shellctl has gone."""
    marker = f"300.{secrets.randbelow(10**9):09d}"
    with workspaces_folder() as workspaces:
        with (
            running_shellctl(tmp_path, workspaces=workspaces, name="stopped") as stopped,
            ThreadPoolExecutor(1) as pool,
        ):
            running = pool.submit(stopped.exec, "s1", f"sleep {marker}", 40)
            deadline = time.monotonic() + 10
            while not host_processes(f"sleep {marker}"):  # the command runs: its workspace is mounted
                assert time.monotonic() < deadline and not running.done()
                time.sleep(0.05)
            folder = stopped.folder("s1")
            assert folder is not None and os.path.ismount(folder)
            stopped.process.process.terminate()  # SIGTERM: shellctl's own graceful stop
            stopped.process.process.wait(timeout=30)
            running.exception()  # the request ended one way or another
        try:
            assert not os.path.ismount(folder)
        finally:
            _kill_sandbox_of(marker)


def _kill_sandbox_of(marker: str) -> None:
    """bwrap's --die-with-parent has a window at its start: a shellctl killed right then can leave
    the sandbox behind (it also did before workspaces were mounted)."""
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and marker.encode() in (entry / "cmdline").read_bytes():
                os.kill(int(entry.name), signal.SIGKILL)
        except OSError:  # not a process, or it ended meanwhile
            continue
    assert none_left(marker)


@pytest.mark.parametrize(("idle_seconds", "interval_s"), [(86400, 60.0), (240, 60.0), (100, 25.0), (1, 0.25)])
def test_idle_workspaces_are_looked_for_every_quarter_of_the_idle_time_at_most_a_minute_apart(
    idle_seconds: int, interval_s: float
) -> None:
    config = ShellctlConfig.from_env({"AGENT_BUILDER_SANDBOX_IDLE_SECONDS": str(idle_seconds)})
    assert config.sweep_interval_s == interval_s  # docs/runtime.md, AGENT_BUILDER_SANDBOX_IDLE_SECONDS
