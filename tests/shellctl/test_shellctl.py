"""shellctl as a real process: exec results, timeouts that kill the process group, output caps,
workspace isolation and the file API's path checks."""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests.runtime.service_process import agent_builder, service

PARENT_SECRET = "parent-process-secret-value-31337"


@dataclass(frozen=True)
class Shellctl:
    client: httpx.Client
    workspaces: Path

    def exec(self, session: str, command: str, timeout_s: float = 10) -> dict:
        response = self.client.post(
            f"/sessions/{session}/exec", json={"command": command, "timeout_s": timeout_s}
        )
        assert response.status_code == 200, response.text
        return response.json()


@pytest.fixture(scope="module")
def shellctl(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Shellctl]:
    root = tmp_path_factory.mktemp("shellctl")
    workspaces = root / "workspaces"
    command = agent_builder("shellctl", "--port", "0", "--workspaces", str(workspaces))
    env = {"E2E_SECRET": PARENT_SECRET}
    with (
        service(command, "AGENT_BUILDER_READY", root / "shellctl.log", env=env) as process,
        httpx.Client(base_url=process.url, timeout=30) as client,
    ):
        yield Shellctl(client, workspaces.resolve())


def _session() -> str:
    return f"s-{uuid.uuid4().hex[:12]}"


def _gone(pid: int, within_s: float = 3.0) -> bool:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                if stat.read().split(") ")[-1].startswith("Z"):  # a zombie awaiting its reaper is dead
                    return True
        except FileNotFoundError:
            return True
        time.sleep(0.05)
    return False


def test_healthz(shellctl: Shellctl) -> None:
    response = shellctl.client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_exec_reports_exact_output_and_exit_code(shellctl: Shellctl) -> None:
    session = _session()
    ok = shellctl.exec(session, "printf 'hello\\nworld\\n'")
    assert ok["stdout"] == "hello\nworld\n"
    assert (ok["exit_code"], ok["stderr"], ok["timed_out"], ok["truncated"]) == (0, "", False, False)
    assert ok["duration_ms"] >= 0

    failing = shellctl.exec(session, "echo oops >&2; exit 3")
    assert (failing["exit_code"], failing["stdout"], failing["stderr"]) == (3, "", "oops\n")


def test_command_runs_in_the_workspace_with_a_minimal_environment(shellctl: Shellctl) -> None:
    session = _session()
    result = shellctl.exec(session, 'pwd; echo "home=$HOME"; env')
    workspace = str(shellctl.workspaces / session)
    lines = result["stdout"].splitlines()
    assert lines[0] == workspace
    assert lines[1] == f"home={workspace}"
    names = {line.split("=", 1)[0] for line in lines[2:]}
    assert {"PATH", "HOME", "LANG"} <= names
    assert names <= {"PATH", "HOME", "LANG", "PWD", "SHLVL", "_", "OLDPWD"}  # the rest is set by sh itself
    assert PARENT_SECRET not in result["stdout"]


def test_timeout_kills_the_whole_process_group(shellctl: Shellctl) -> None:
    started = time.monotonic()
    result = shellctl.exec(_session(), "sleep 30 & echo $!; sleep 30", timeout_s=1)
    assert time.monotonic() - started < 5
    assert result["timed_out"] is True
    assert result["exit_code"] is None
    background_pid = int(result["stdout"].strip())
    assert _gone(background_pid), "the background child survived the timeout"


def test_background_jobs_do_not_outlive_a_finished_command(shellctl: Shellctl) -> None:
    started = time.monotonic()
    result = shellctl.exec(_session(), "sleep 30 & echo $!")
    assert time.monotonic() - started < 5
    assert (result["exit_code"], result["timed_out"]) == (0, False)
    assert _gone(int(result["stdout"].strip()))


def test_a_process_that_left_the_group_does_not_hold_the_reply(shellctl: Shellctl) -> None:
    started = time.monotonic()
    result = shellctl.exec(_session(), "setsid sleep 3 & echo started")  # keeps stdout open for 3 s
    assert time.monotonic() - started < 2.5
    assert (result["exit_code"], result["stdout"]) == (0, "started\n")


def test_output_is_capped_while_reading(shellctl: Shellctl) -> None:
    result = shellctl.exec(_session(), "head -c 10000000 /dev/zero | tr '\\0' a; echo done >&2")
    assert result["truncated"] is True
    assert result["stdout"] == "a" * 65536
    assert result["stderr"] == "done\n"
    assert result["exit_code"] == 0


def test_sessions_have_separate_workspaces(shellctl: Shellctl) -> None:
    first, second = _session(), _session()
    shellctl.exec(first, "echo mine > note.txt")
    assert shellctl.exec(first, "cat note.txt")["stdout"] == "mine\n"
    other = shellctl.exec(second, "ls -A; pwd")
    assert other["stdout"] == f"{shellctl.workspaces / second}\n"


def test_files_round_trip_inside_the_workspace(shellctl: Shellctl) -> None:
    session = _session()
    written = shellctl.client.put(
        f"/sessions/{session}/files", params={"path": "notes/a.txt"}, content=b"hi there\n"
    )
    assert written.status_code == 200, written.text
    assert written.json() == {"path": "notes/a.txt", "size": 9}
    assert shellctl.exec(session, "cat notes/a.txt")["stdout"] == "hi there\n"

    shellctl.exec(session, "echo from-shell > out.txt; ln -s out.txt link.txt")
    for path in ("out.txt", "link.txt"):
        read = shellctl.client.get(f"/sessions/{session}/files", params={"path": path})
        assert read.status_code == 200
        assert read.content == b"from-shell\n"

    missing = shellctl.client.get(f"/sessions/{session}/files", params={"path": "nope.txt"})
    assert missing.status_code == 404
    assert missing.json()["code"] == "file_not_found"


def test_file_uploads_are_limited(shellctl: Shellctl) -> None:
    session = _session()
    too_big = shellctl.client.put(
        f"/sessions/{session}/files", params={"path": "big"}, content=b"x" * (2 << 20)
    )
    assert too_big.status_code == 413
    assert too_big.json()["code"] == "file_too_large"
    shellctl.exec(session, "mkdir folder")
    onto_folder = shellctl.client.put(f"/sessions/{session}/files", params={"path": "folder"}, content=b"x")
    assert onto_folder.status_code == 400


@pytest.mark.parametrize(
    "path", ["../escape.txt", "a/../../escape.txt", "/etc/passwd", "", ".", "outside/passwd", "up/escape.txt"]
)
def test_paths_leaving_the_workspace_are_rejected(shellctl: Shellctl, path: str) -> None:
    session = _session()
    shellctl.exec(session, "ln -s /etc outside; ln -s .. up")
    for response in (
        shellctl.client.get(f"/sessions/{session}/files", params={"path": path}),
        shellctl.client.put(f"/sessions/{session}/files", params={"path": path}, content=b"x"),
    ):
        assert response.status_code == 400, (path, response.text)
        assert response.json()["code"] == "invalid_path"
    assert not (shellctl.workspaces / "escape.txt").exists()


@pytest.mark.parametrize("session", ["a.b", "x" * 65, "semi;colon"])
def test_bad_session_ids_are_rejected(shellctl: Shellctl, session: str) -> None:
    response = shellctl.client.post(f"/sessions/{session}/exec", json={"command": "true"})
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_session_id"
    assert response.json()["message"]


@pytest.mark.parametrize(
    "body", [{"command": "true", "timeout_s": 0}, {"command": "true", "timeout_s": 121}, {"command": ""}, {}]
)
def test_invalid_exec_bodies_are_422(shellctl: Shellctl, body: dict) -> None:
    response = shellctl.client.post(f"/sessions/{_session()}/exec", json=body)
    assert response.status_code == 422
    assert response.json()["code"] == "invalid_request"


def test_delete_removes_the_workspace(shellctl: Shellctl) -> None:
    session = _session()
    shellctl.exec(session, "mkdir -p deep/er && echo x > deep/er/f")
    assert (shellctl.workspaces / session).is_dir()
    assert shellctl.client.delete(f"/sessions/{session}").status_code == 204
    assert not (shellctl.workspaces / session).exists()
    assert shellctl.client.delete(f"/sessions/{session}").status_code == 204  # idempotent


def test_unknown_routes_answer_json(shellctl: Shellctl) -> None:
    response = shellctl.client.get("/nope")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
    assert os.path.isdir(shellctl.workspaces)
