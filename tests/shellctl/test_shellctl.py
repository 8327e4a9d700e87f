"""shellctl's API as a real process: exec results, output caps, the token, workspaces per owner
and session, idle removal, and 4xx JSON for every bad input (the file API: test_shellctl_files.py)."""

from __future__ import annotations

import json
import os
import re
import time
import uuid

import httpx
import pytest

from tests.shellctl.conftest import Shellctl, json_error, new_session, running_shellctl


def test_healthz_is_open_and_reports_the_isolation(shellctl: Shellctl) -> None:
    response = httpx.get(f"{shellctl.process.url}/healthz")  # no token
    assert response.status_code == 200
    quota = (100 << 20) if os.geteuid() == 0 else None  # a disk quota needs loop mounts, so root
    assert response.json() == {"status": "ok", "isolation": "bubblewrap", "workspace_bytes": quota}


@pytest.mark.parametrize("authorization", [None, "Bearer wrong-token-0123456789", "Basic abc", "Bearer"])
@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", "/sessions/s1/exec"),
        ("GET", "/sessions/s1/files?path=a.txt"),
        ("PUT", "/sessions/s1/files?path=a.txt"),
        ("DELETE", "/sessions/s1"),
        ("DELETE", "/owners/agent-1"),
        ("GET", "/openapi.json"),
        ("GET", "/no-such-route"),
    ],
)
def test_every_route_but_healthz_needs_the_token(
    shellctl: Shellctl, authorization: str | None, method: str, path: str
) -> None:
    headers = {"Authorization": authorization} if authorization else {}
    response = httpx.request(
        method, f"{shellctl.process.url}{path}", headers=headers, json={"command": "touch pwned"}
    )
    json_error(response, 401, "unauthorized")
    assert response.headers["www-authenticate"] == "Bearer"
    assert shellctl.folder("s1") is None  # nothing ran, nothing was created


def test_the_token_never_reaches_the_log(shellctl: Shellctl) -> None:
    shellctl.exec(new_session(), "true")
    httpx.get(f"{shellctl.process.url}/openapi.json", headers={"Authorization": "Bearer guess"})
    assert "shellctl-tests-token" not in shellctl.process.log_path.read_text()


def test_exec_reports_exact_output_and_exit_code(shellctl: Shellctl) -> None:
    session = new_session()
    ok = shellctl.exec(session, "printf 'hello\\nworld\\n'")
    assert ok["stdout"] == "hello\nworld\n"
    assert (ok["exit_code"], ok["stderr"], ok["timed_out"], ok["truncated"]) == (0, "", False, False)
    assert ok["duration_ms"] >= 0

    failing = shellctl.exec(session, "echo oops >&2; exit 3")
    assert (failing["exit_code"], failing["stdout"], failing["stderr"]) == (3, "", "oops\n")
    killed = shellctl.exec(session, "kill -9 $$")
    assert killed["exit_code"] == 128 + 9  # as a shell reports a command killed by a signal


def test_output_is_capped_while_reading(shellctl: Shellctl) -> None:
    result = shellctl.exec(new_session(), "head -c 10000000 /dev/zero | tr '\\0' a; echo done >&2")
    assert result["truncated"] is True
    assert result["stdout"] == "a" * 65536
    assert result["stderr"] == "done\n"
    assert result["exit_code"] == 0


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"command": "echo a\x00b"}, "command"),  # a NUL byte cannot be part of a process argument
        (b'{"command": "echo \\ud800"}', "command"),  # a lone surrogate is no text a process can get
        ({"command": "true", "timeout_s": 0}, "timeout_s"),
        ({"command": "true", "timeout_s": 121}, "timeout_s"),
        ({"command": ""}, "command"),
        ({}, "command"),
        ({"command": 42}, "command"),
    ],
)
def test_unusable_exec_bodies_are_422_naming_the_field(
    shellctl: Shellctl, body: dict | bytes, field: str
) -> None:
    content = body if isinstance(body, bytes) else json.dumps(body).encode()
    response = shellctl.client.post(
        f"/sessions/{new_session()}/exec", content=content, headers={"Content-Type": "application/json"}
    )
    error = json_error(response, 422, "invalid_request")
    assert [item["field"] for item in error["errors"]] == [field]


@pytest.mark.parametrize("content", [b"{not json", b'{"command": "true"', b"\xff\xfe", b""])
def test_malformed_json_is_422_on_the_body(shellctl: Shellctl, content: bytes) -> None:
    response = shellctl.client.post(
        f"/sessions/{new_session()}/exec", content=content, headers={"Content-Type": "application/json"}
    )
    error = json_error(response, 422, "invalid_request")
    assert {item["field"] for item in error["errors"]} == {"body"}


def test_sessions_have_separate_workspaces(shellctl: Shellctl) -> None:
    first, second = new_session(), new_session()
    shellctl.exec(first, "echo mine > note.txt")
    assert shellctl.exec(first, "cat note.txt")["stdout"] == "mine\n"
    assert shellctl.exec(second, "ls -A; pwd; echo $HOME")["stdout"] == "/workspace\n/workspace\n"


def test_workspace_names_are_random_and_mapped_per_owner(shellctl: Shellctl) -> None:
    session = new_session()
    shellctl.exec(session, "echo unowned > who.txt")
    shellctl.exec(session, "echo agent-a > who.txt", owner="agent-a")
    shellctl.exec(session, "echo agent-b > who.txt", owner="agent-b")
    folders = [shellctl.folder(session, owner) for owner in ("", "agent-a", "agent-b")]
    assert all(folder is not None and folder.is_dir() for folder in folders)
    assert len(set(folders)) == 3  # the same session id under three owners: three workspaces
    for owner, folder, who in zip(
        ("", "agent-a", "agent-b"), folders, ("unowned", "agent-a", "agent-b"), strict=True
    ):
        assert folder is not None and re.fullmatch(r"[0-9a-f]{32}", folder.name)
        with shellctl.files_of(session, owner) as files:
            assert (files / "who.txt").read_text() == f"{who}\n"
    assert not any(session in name for name in os.listdir(shellctl.workspaces))
    assert os.stat(shellctl.workspaces).st_mode & 0o777 == 0o711  # searchable, not listable


@pytest.mark.parametrize("session", ["a.b", "x" * 65, "semi;colon"])
def test_bad_session_ids_are_rejected(shellctl: Shellctl, session: str) -> None:
    response = shellctl.client.post(f"/sessions/{session}/exec", json={"command": "true"})
    json_error(response, 400, "invalid_session_id")


@pytest.mark.parametrize("owner", ["a.b", "x" * 65, "semi;colon", ""])
def test_bad_owners_are_rejected(shellctl: Shellctl, owner: str) -> None:
    response = shellctl.client.post(
        f"/sessions/{new_session()}/exec", params={"owner": owner}, json={"command": "true"}
    )
    json_error(response, 400, "invalid_owner")
    if owner:
        json_error(shellctl.client.delete(f"/owners/{owner}"), 400, "invalid_owner")


def test_delete_removes_the_workspace(shellctl: Shellctl) -> None:
    session = new_session()
    shellctl.exec(session, "mkdir -p deep/er && echo x > deep/er/f && chmod 500 deep/er")
    folder = shellctl.folder(session)
    assert folder is not None and folder.is_dir()
    assert shellctl.client.delete(f"/sessions/{session}").status_code == 204
    assert not folder.exists()
    assert shellctl.folder(session) is None
    assert shellctl.client.delete(f"/sessions/{session}").status_code == 204  # idempotent
    assert shellctl.exec(session, "ls -A")["stdout"] == ""  # a fresh workspace, under a new name
    assert shellctl.folder(session) != folder


def test_deleting_an_owner_removes_all_its_workspaces(shellctl: Shellctl) -> None:
    owner, other = f"agent-{uuid.uuid4().hex[:8]}", f"agent-{uuid.uuid4().hex[:8]}"
    sessions = [new_session(), new_session()]
    for session in sessions:
        shellctl.exec(session, "echo mine > f", owner=owner)
    shellctl.exec(sessions[0], "echo theirs > f", owner=other)
    folders = [shellctl.folder(session, owner) for session in sessions]

    response = shellctl.client.delete(f"/owners/{owner}")
    assert response.status_code == 200, response.text
    assert response.json() == {"owner": owner, "removed": 2}
    assert not any(folder is not None and folder.exists() for folder in folders)
    assert shellctl.exec(sessions[0], "cat f", owner=other)["stdout"] == "theirs\n"
    assert shellctl.client.delete(f"/owners/{owner}").json() == {"owner": owner, "removed": 0}


def test_unknown_routes_answer_json(shellctl: Shellctl) -> None:
    json_error(shellctl.client.get("/nope"), 404, "not_found")


# The run request's `env`: the agent's plain variables reach the command, never the host's,
# and the sandbox's own variables cannot be replaced through it.
def test_request_env_reaches_the_command_but_not_over_the_sandbox_variables(shellctl: Shellctl) -> None:
    session = new_session()
    body = {"command": 'echo "$GREETING|$HOME"', "env": {"GREETING": "hello there", "HOME": "/elsewhere"}}
    response = shellctl.client.post(f"/sessions/{session}/exec", json=body)
    assert response.status_code == 200, response.text
    assert response.json()["stdout"] == "hello there|/workspace\n"
    for env in ({"lower": "x"}, {"NUL": "a\x00b"}):
        bad = shellctl.client.post(f"/sessions/{session}/exec", json={"command": "true", "env": env})
        assert bad.status_code == 422, bad.text


def test_idle_workspaces_are_removed(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Issue 25, item 5: a workspace lived until its agent was deleted."""
    logs = tmp_path_factory.mktemp("idle")
    with running_shellctl(logs, env={"AGENT_BUILDER_SANDBOX_IDLE_SECONDS": "1"}, name="idle") as idle:
        session = new_session()
        # In use for longer than the idle time: a workspace is never removed under a command.
        assert idle.exec(session, "echo kept > f; sleep 2.5; cat f")["stdout"] == "kept\n"
        folder = idle.folder(session)
        assert folder is not None
        deadline = time.monotonic() + 5
        while idle.folder(session) is not None:
            assert time.monotonic() < deadline, "the idle workspace is still there"
            time.sleep(0.1)
        assert not any(idle.workspaces.glob(f"{folder.name}*"))  # its folder and file system
        assert idle.exec(session, "ls -A")["stdout"] == ""  # the next command starts afresh
        assert "1 idle workspaces removed" in idle.process.log_path.read_text()
