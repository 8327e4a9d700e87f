"""shellctl as a real process, with its token, and helpers to look at the host side of it."""

from __future__ import annotations

import sqlite3
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator, Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from support.stack import Service
from tests.product_services import agent_builder, running, workspaces_folder

TOKEN = "shellctl-tests-token-0123456789"
# In shellctl's own environment, like the console's admin password in the console's: no command may see it.
PARENT_SECRET = "parent-process-secret-value-31337"


@dataclass(frozen=True)
class Shellctl:
    client: httpx.Client  # sends the token
    workspaces: Path
    process: Service

    def exec(self, session: str, command: str, timeout_s: float = 10, owner: str | None = None) -> dict:
        response = self.client.post(
            f"/sessions/{session}/exec",
            params={"owner": owner} if owner else {},
            json={"command": command, "timeout_s": timeout_s},
        )
        assert response.status_code == 200, response.text
        return response.json()

    def folder(self, session: str, owner: str = "") -> Path | None:
        """The host folder of a session's workspace, from shellctl's index (None: no workspace)."""
        with sqlite3.connect(f"file:{self.workspaces / '.index.sqlite3'}?mode=ro", uri=True) as index:
            row = index.execute(
                "SELECT folder FROM workspaces WHERE owner = ? AND session = ?", (owner, session)
            ).fetchone()
        return None if row is None else self.workspaces / row[0]

    @contextmanager
    def files_of(self, session: str, owner: str = "") -> Iterator[Path]:
        """The host folder holding a session's files: the workspace's own, or, with a disk quota
        (shellctl mounts a workspace only while it uses it), its file system mounted elsewhere."""
        folder = self.folder(session, owner)
        assert folder is not None, f"session {session} has no workspace"
        image = folder.with_name(folder.name + ".ext4")
        if not image.exists():
            yield folder
            return
        with tempfile.TemporaryDirectory(prefix="workspace-") as mount_point:
            # Like shellctl mounts it: mount(8) reuses the loop device of an image still attached.
            subprocess.run(
                ["mount", "-t", "ext4", "-o", "loop,nosuid,nodev,noatime", image, mount_point], check=True
            )
            try:
                yield Path(mount_point)
            finally:
                subprocess.run(["umount", mount_point], check=True)


@contextmanager
def running_shellctl(
    logs: Path,
    *args: str,
    env: Mapping[str, str] | None = None,
    name: str = "shellctl",
    workspaces: Path | None = None,
) -> Iterator[Shellctl]:
    """shellctl on a workspaces folder of its own, or on `workspaces` (from `workspaces_folder()`)."""
    env = {"AGENT_BUILDER_SHELLCTL_TOKEN": TOKEN, "E2E_SECRET": PARENT_SECRET, **(env or {})}
    with ExitStack() as stack:
        folder = workspaces or stack.enter_context(workspaces_folder())
        command = agent_builder("shellctl", "--port", "0", "--workspaces", str(folder), *args)
        process = stack.enter_context(running(command, "AGENT_BUILDER_READY", logs / f"{name}.log", env=env))
        headers = {"Authorization": f"Bearer {TOKEN}"}
        client = stack.enter_context(httpx.Client(base_url=process.url, timeout=30, headers=headers))
        yield Shellctl(client, folder.resolve(), process)


@pytest.fixture(scope="session")
def shellctl(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Shellctl]:
    with running_shellctl(tmp_path_factory.mktemp("shellctl")) as started:
        yield started


def host_processes(marker: str) -> list[str]:
    """Command lines of the host's processes that contain `marker`."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:  # not a process, or it ended meanwhile
            continue
        if entry.name.isdigit() and marker in cmdline:
            found.append(cmdline)
    return found


def none_left(marker: str, within_s: float = 3.0) -> bool:
    """No host process carries `marker`, or none does any more within `within_s` (the kernel
    takes a moment to tear a namespace down after its pid 1 died)."""
    deadline = time.monotonic() + within_s
    while host_processes(marker):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def new_session() -> str:
    """A session id no other test uses."""
    return f"s-{uuid.uuid4().hex[:12]}"


def json_error(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["code"] == code, body
    assert body["message"]
    return body
