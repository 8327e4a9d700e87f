"""A workspace's skills/ folder (the runtime writes the agent's skills there through the file API):
commands read it and cannot change it; a link a command puts in its place mounts nothing of the host."""

from __future__ import annotations

import uuid

from tests.shellctl.conftest import Shellctl


def _session() -> str:
    return f"s-{uuid.uuid4().hex[:12]}"


def test_a_command_reads_the_skills_folder_and_cannot_change_it(shellctl: Shellctl) -> None:
    session = _session()
    written = shellctl.client.put(
        f"/sessions/{session}/files", params={"path": "skills/house-rules/rules.md"}, content=b"Quiet.\n"
    )
    assert written.status_code == 200, written.text
    result = shellctl.exec(
        session,
        "echo changed > skills/house-rules/rules.md; touch skills/new.md; rm -rf skills; cat skills/house-rules/rules.md",
    )
    assert result["stdout"] == "Quiet.\n"
    assert result["stderr"].count("Read-only file system") >= 2, result["stderr"]
    assert shellctl.exec(session, "echo a > a.txt && cat a.txt")["stdout"] == "a\n"  # the rest is writable


def test_a_link_in_place_of_the_skills_folder_mounts_nothing_of_the_host(shellctl: Shellctl) -> None:
    session = _session()
    assert shellctl.exec(session, "ln -s /proc/1/root skills && echo linked")["stdout"] == "linked\n"
    result = shellctl.exec(session, "ls skills/ >/dev/null 2>&1; echo ran; test -w skills/ && echo writable")
    assert result["stdout"].startswith("ran\n"), result
