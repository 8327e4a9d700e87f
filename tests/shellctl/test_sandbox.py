"""What a command can reach inside shellctl's bubblewrap sandbox, tried the way an attacker would:
the host's processes, environment, files, network and kernel settings; what outlives a timeout;
and the resource limits."""

from __future__ import annotations

import os
import re
import secrets
import shlex
import subprocess
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.shellctl.conftest import (
    PARENT_SECRET,
    TOKEN,
    Shellctl,
    host_processes,
    none_left,
    running_shellctl,
)

TOP_LEVEL = {"bin", "dev", "etc", "lib", "lib64", "proc", "sbin", "tmp", "usr", "workspace"}  # on any host
AS_ROOT = pytest.mark.skipif(
    os.geteuid() != 0, reason="only shellctl run as root gives workspaces uids of their own"
)


def _session() -> str:
    return f"s-{uuid.uuid4().hex[:12]}"


def _marker() -> str:
    """A sleep duration no other process on the host has: `sleep 300.<digits>`."""
    return f"300.{secrets.randbelow(10**9):09d}"


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Shellctl]:
    env = {
        "AGENT_BUILDER_SANDBOX_MAX_PROCESSES_PER_OWNER": "24",
        "AGENT_BUILDER_SANDBOX_MAX_FILE_BYTES": str(1 << 20),
        "AGENT_BUILDER_SANDBOX_CPU_SECONDS": "1",
        "AGENT_BUILDER_SANDBOX_MEMORY_BYTES": str(256 << 20),
        "AGENT_BUILDER_SANDBOX_TMP_BYTES": str(2 << 20),
    }
    with running_shellctl(tmp_path_factory.mktemp("limited"), env=env, name="limited") as started:
        yield started


def test_no_process_sees_a_secret_of_the_host(shellctl: Shellctl) -> None:
    # The attack that read the console's admin password: every environment under /proc.
    result = shellctl.exec(_session(), "for p in /proc/[0-9]*; do tr '\\0' '\\n' < $p/environ; done; env")
    assert result["exit_code"] == 0, result
    variables = {line.split("=", 1)[0] for line in result["stdout"].splitlines()}
    assert variables == {"PATH", "HOME", "LANG", "TERM", "PWD"}  # PWD is set by sh itself
    assert PARENT_SECRET not in result["stdout"] and TOKEN not in result["stdout"]


def test_the_host_processes_are_out_of_sight_and_reach(shellctl: Shellctl) -> None:
    # A victim of the test's own, not `kill -9 -1`: should the sandbox ever break, only it may die.
    with subprocess.Popen(["sleep", "60"]) as victim:
        try:
            result = shellctl.exec(_session(), f"ls /proc | grep -c '^[0-9]'; kill -9 {victim.pid}")
            assert victim.poll() is None, "a sandboxed command killed a host process"
        finally:
            victim.kill()
    assert int(result["stdout"].splitlines()[0]) <= 6  # bwrap, sh, ls, grep and the like
    assert "No such process" in result["stderr"]


def test_the_file_system_is_a_read_only_minimal_system(
    shellctl: Shellctl, tmp_path_factory: pytest.TempPathFactory
) -> None:
    host_tmp = Path("/tmp", f"host-only-{uuid.uuid4().hex}")
    host_tmp.write_text("host")
    try:
        result = shellctl.exec(
            _session(),
            f"ls -A /; echo ---; ls -A /etc; echo ---; ls -A ..; echo ---; test -e {host_tmp} && echo HOST-TMP; "
            f"test -e {shellctl.workspaces} && echo HOST-WORKSPACES; ls /root /home /var /opt 2>&1 | wc -l",
        )
    finally:
        host_tmp.unlink()
    top, etc, parent, rest = result["stdout"].split("---\n")
    assert set(top.split()) == TOP_LEVEL
    assert set(parent.split()) == set(top.split())  # `ls ..` is the sandbox's root, no other workspace
    assert not {"shadow", "gshadow", "sudoers", "ssh", "ssl", "resolv.conf"} & set(etc.split())
    assert {"passwd", "group", "hosts"} <= set(etc.split())
    assert rest == "4\n"  # four "No such file or directory"; neither host path exists inside


@pytest.mark.parametrize("path", ["/", "/usr", "/etc", "/dev", "/proc/sys/kernel/core_pattern"])
def test_the_system_is_read_only(shellctl: Shellctl, path: str) -> None:
    # `test -w` rather than a write: should the sandbox ever break, nothing of the host changes.
    result = shellctl.exec(_session(), f"test -w {path} && echo WRITABLE || echo refused")
    assert result["stdout"] == "refused\n", result


def test_the_workspace_and_the_tmpfs_are_writable(shellctl: Shellctl) -> None:
    name = uuid.uuid4().hex
    result = shellctl.exec(
        _session(),
        f"echo a > a && echo b > /tmp/{name} && echo c > /dev/shm/{name} && cat a /tmp/{name} /dev/shm/{name}",
    )
    assert result["stdout"] == "a\nb\nc\n"
    assert not Path("/tmp", name).exists() and not Path("/dev/shm", name).exists()  # not the host's


@pytest.mark.parametrize("owner", [None, "agent-1"], ids=["other-owner", "same-owner"])
def test_other_workspaces_are_out_of_reach(shellctl: Shellctl, owner: str | None) -> None:
    # Workspaces of one owner share a uid: only the mount namespace keeps them apart.
    first, second = _session(), _session()
    shellctl.exec(first, "echo private > note.txt", owner="agent-1")
    folder = shellctl.folder(first, "agent-1")
    assert folder is not None
    result = shellctl.exec(
        second,
        f"find / -name note.txt 2>/dev/null; cat {folder}/note.txt 2>/dev/null || echo unreadable; ls -A ..",
        owner=owner,
    )
    lines = result["stdout"].splitlines()
    assert lines[0] == "unreadable"  # find found nothing; its host path does not exist in here
    assert "private" not in result["stdout"] and folder.name not in lines


def test_there_is_no_network_but_loopback(shellctl: Shellctl) -> None:
    result = shellctl.exec(
        _session(), "tail -n +3 /proc/net/dev | cut -d: -f1; tail -n +2 /proc/net/tcp | wc -l"
    )
    assert result["stdout"].split() == ["lo", "0"]  # not even shellctl's own listening socket


def test_the_network_switch_shares_the_hosts_network(tmp_path_factory: pytest.TempPathFactory) -> None:
    logs = tmp_path_factory.mktemp("network")
    with running_shellctl(logs, env={"AGENT_BUILDER_SANDBOX_NETWORK": "1"}, name="network") as networked:
        port = int(networked.process.url.rsplit(":", 1)[1])
        result = networked.exec(
            _session(), f"test -e /etc/resolv.conf && echo resolv; grep -c ':{port:04X} ' /proc/net/tcp"
        )
    # shellctl's listening socket (at least) is visible now; counted, as the table may be long.
    lines = result["stdout"].split()
    assert lines[0] == "resolv" and int(lines[1]) >= 1, result


@AS_ROOT
def test_every_owner_runs_as_a_host_uid_of_its_own(shellctl: Shellctl) -> None:
    owners = [f"agent-{uuid.uuid4().hex[:8]}" for _ in range(2)]
    uids = {}
    for owner, session in [(owners[0], _session()), (owners[0], _session()), (owners[1], _session())]:
        shellctl.exec(session, "touch mine", owner=owner)
        with shellctl.files_of(session, owner) as files:
            assert (files / "mine").stat().st_uid == files.stat().st_uid
            uids.setdefault(owner, set()).add(files.stat().st_uid)
    assert [len(uids[owner]) for owner in owners] == [1, 1]  # one uid for all sessions of an owner
    assert uids[owners[0]] != uids[owners[1]] and 0 not in uids[owners[0]] | uids[owners[1]]


@AS_ROOT
def test_the_process_limit_counts_every_workspace_of_an_owner(limited: Shellctl) -> None:
    """Issue 25, item 5: RLIMIT_NPROC counted per workspace, so 3 conversations of one agent held
    342 processes at once. Now one conversation holding 12 of the owner's 24 leaves another
    conversation of that owner too few for 12 more, and one of another owner all it needs."""
    owner, holder = f"agent-{uuid.uuid4().hex[:8]}", _session()
    held, more, elsewhere = _marker(), _marker(), _marker()
    spawn = "for i in $(seq 12); do sleep {} & done"
    with ThreadPoolExecutor(1) as pool:
        holding = pool.submit(
            limited.exec,
            holder,
            spawn.format(held) + "; while [ ! -e stop ]; do sleep 0.1; done",
            timeout_s=20,
            owner=owner,
        )
        try:
            deadline = time.monotonic() + 10
            while len(host_processes(f"sleep {held}")) < 12:
                assert time.monotonic() < deadline and not holding.done(), holding
                time.sleep(0.05)
            same = limited.exec(_session(), spawn.format(more) + "; echo spawned", owner=owner)
            other = limited.exec(_session(), spawn.format(elsewhere) + "; echo spawned", owner="agent-other")
        finally:
            limited.client.put(f"/sessions/{holder}/files", params={"path": "stop", "owner": owner})
        assert holding.result()["exit_code"] == 0
    assert re.search("fork|Resource temporarily unavailable", same["stderr"], re.IGNORECASE), same
    assert (other["stdout"], other["stderr"]) == ("spawned\n", ""), other


def test_a_timeout_kills_everything_the_command_started(shellctl: Shellctl) -> None:
    marker = _marker()
    escapes = (
        f"setsid sleep {marker} & nohup sleep {marker} >/dev/null 2>&1 & "
        f"(sleep {marker} &) ; perl -e 'setpgrp; exec qw(sleep {marker})' & "
        f"sh -c 'sleep {marker} & exec sleep {marker}' & sleep {marker}"
    )
    result = shellctl.exec(_session(), escapes, timeout_s=1)
    assert (result["timed_out"], result["exit_code"]) == (True, None)
    assert none_left(marker), host_processes(marker)


def test_nothing_outlives_a_finished_command(shellctl: Shellctl) -> None:
    marker = _marker()
    # The command ends only once its escapee is in a session of its own (it wrote its pid after setsid).
    escape = f"setsid sh -c 'echo $$ > pid; exec sleep {marker}' >/dev/null 2>&1 & sleep {marker} &"
    result = shellctl.exec(_session(), f"{escape} while [ ! -s pid ]; do :; done; echo started")
    assert (result["exit_code"], result["stdout"], result["timed_out"]) == (0, "started\n", False)
    assert result["duration_ms"] < 2000  # no process left behind holds the reply
    assert none_left(marker), host_processes(marker)


def test_every_process_gets_the_configured_limits(limited: Shellctl) -> None:
    result = limited.exec(_session(), "cat /proc/self/limits; sh -c 'cat /proc/self/limits'")
    limits = [line for line in result["stdout"].splitlines() if line.startswith("Max ")]
    expected = {  # soft and hard limit
        "Max processes": ["24", "24"],
        "Max file size": [str(1 << 20)] * 2,
        "Max cpu time": ["1", "2"],  # SIGXCPU at 1 s, SIGKILL at 2 s
        "Max address space": [str(256 << 20)] * 2,
        "Max core file size": ["0", "0"],
    }
    for name, values in expected.items():
        lines = [line for line in limits if line.startswith(name)]
        assert len(lines) == 2 and all(line.split()[-3:-1] == values for line in lines), lines


def test_the_process_limit_stops_a_fork_bomb(limited: Shellctl) -> None:
    marker = _marker()
    result = limited.exec(
        _session(), f"for i in $(seq 40); do sleep {marker} & done; echo never", timeout_s=5
    )
    assert "never" not in result["stdout"] and "fork" in result["stderr"].lower()
    assert none_left(marker)


def test_the_file_size_limit_stops_a_disk_filler(limited: Shellctl) -> None:
    result = limited.exec(_session(), "head -c 5000000 /dev/zero > big; echo $?; stat -c %s big")
    assert result["stdout"].split() == [str(128 + 25), str(1 << 20)]  # SIGXFSZ at the limit


def test_the_cpu_limit_stops_a_busy_loop(limited: Shellctl) -> None:
    result = limited.exec(_session(), "sh -c 'while :; do :; done'; echo $?", timeout_s=20)
    assert result["stdout"] == f"{128 + 24}\n"  # SIGXCPU after one CPU second, long before the timeout
    assert "CPU time limit exceeded" in result["stderr"]


def test_a_loop_that_ignores_the_cpu_signal_is_killed_one_cpu_second_later(limited: Shellctl) -> None:
    script = "(trap '' XCPU; while :; do :; done); echo $?; times"
    result = limited.exec(_session(), f"sh -c {shlex.quote(script)}", timeout_s=20)
    status, _shell_times, children_times = result["stdout"].splitlines()
    assert status == str(128 + 9)  # SIGKILL, the hard limit
    user, system = (_seconds(part) for part in children_times.split())
    # CPU time, not wall time: the kernel kills at the hard limit (2 s) whatever the load.
    assert 1.5 < user + system < 2.5, children_times


def _seconds(times: str) -> float:
    """`0m1.98s` (the shell's `times`) in seconds."""
    minutes, _, seconds = times.removesuffix("s").partition("m")
    return int(minutes) * 60 + float(seconds)


def test_the_tmpfs_is_small(limited: Shellctl) -> None:
    name = uuid.uuid4().hex
    try:
        result = limited.exec(
            _session(), f"for n in 1 2 3; do head -c 1000000 /dev/zero > /tmp/{name}-$n || exit 1; done"
        )
    finally:
        for leftover in Path("/tmp").glob(f"{name}-*"):  # only if the sandbox's /tmp were the host's
            leftover.unlink()
    assert result["exit_code"] == 1 and "No space left" in result["stderr"]


@AS_ROOT
def test_the_disk_quota_bounds_a_workspace(shellctl: Shellctl) -> None:
    """Issue 25, item 5: four 60 MB files took under a second, and nothing bounded their total.
    Each is within the file size limit (64 MiB); the workspace's quota (100 MiB) stops the second."""
    session = _session()
    result = shellctl.exec(
        session, "for n in 1 2 3 4; do head -c 60000000 /dev/zero > f$n || echo f$n; done", timeout_s=60
    )
    assert result["stdout"].split() == ["f2", "f3", "f4"], result
    assert result["stderr"].count("No space left on device") == 3
    folder = shellctl.folder(session)
    assert folder is not None
    on_host = sum(path.stat().st_blocks * 512 for path in shellctl.workspaces.glob(f"{folder.name}*"))
    assert on_host <= 100 << 20  # the image, and nothing beside it
    assert not os.path.ismount(folder)  # mounted only while a command or the file API uses it
    # Unmounted, the mount point is root's: nothing the owner's uid runs can write beside its quota.
    assert (folder.stat().st_uid, folder.stat().st_mode & 0o777) == (0, 0o700)
    with shellctl.files_of(session) as files:
        assert (files / "f1").stat().st_size == 60_000_000 and (files / "f4").stat().st_size == 0
