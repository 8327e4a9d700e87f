"""shellctl's file API as a real process: files round trip inside the workspace, within limits,
never through a link, a hard link, a special file or `..`, a folder read is a 400, and a full
workspace says so."""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.shellctl.conftest import Shellctl, json_error, new_session, running_shellctl


def test_files_round_trip_inside_the_workspace(shellctl: Shellctl) -> None:
    session = new_session()
    written = shellctl.client.put(
        f"/sessions/{session}/files", params={"path": "notes/a.txt"}, content=b"hi there\n"
    )
    assert written.status_code == 200, written.text
    assert written.json() == {"path": "notes/a.txt", "size": 9}
    assert shellctl.exec(session, "cat notes/a.txt; echo more >> notes/a.txt")["stdout"] == "hi there\n"
    read = shellctl.client.get(f"/sessions/{session}/files", params={"path": "./notes//a.txt"})
    assert (read.status_code, read.content) == (200, b"hi there\nmore\n")

    missing = shellctl.client.get(f"/sessions/{session}/files", params={"path": "nope.txt"})
    json_error(missing, 404, "file_not_found")
    unknown = shellctl.client.get(f"/sessions/{new_session()}/files", params={"path": "a.txt"})
    json_error(unknown, 404, "file_not_found")


def test_file_uploads_are_limited(shellctl: Shellctl) -> None:
    session = new_session()
    too_big = shellctl.client.put(
        f"/sessions/{session}/files", params={"path": "big"}, content=b"x" * (2 << 20)
    )
    json_error(too_big, 413, "file_too_large")
    shellctl.exec(session, "mkdir folder")
    onto_folder = shellctl.client.put(f"/sessions/{session}/files", params={"path": "folder"}, content=b"x")
    json_error(onto_folder, 400, "invalid_path")


@pytest.mark.parametrize(
    "path",
    [
        "../escape.txt",
        "a/../../escape.txt",
        "/etc/passwd",
        "",
        ".",
        "outside/passwd",  # through a symlink to /etc
        "up/escape.txt",  # through a symlink to ..
        "inside.txt",  # a symlink to a file inside: not followed either
        "linkdir/real.txt",  # a symlink to a folder inside
        "bad\x00name",
    ],
)
def test_the_file_api_follows_no_link_and_no_dots(shellctl: Shellctl, path: str) -> None:
    session = new_session()
    shellctl.exec(
        session,
        "ln -s /etc outside; ln -s .. up; echo x > real.txt; ln -s real.txt inside.txt; "
        "mkdir dir; echo y > dir/real.txt; ln -s dir linkdir",
    )
    for response in (
        shellctl.client.get(f"/sessions/{session}/files", params={"path": path}),
        shellctl.client.put(f"/sessions/{session}/files", params={"path": path}, content=b"pwned"),
    ):
        json_error(response, 400, "invalid_path")
    assert shellctl.exec(session, "cat real.txt dir/real.txt")["stdout"] == "x\ny\n"
    assert not (shellctl.workspaces / "escape.txt").exists()


@pytest.fixture(scope="module")
def unquoted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Shellctl]:
    """shellctl without a disk quota: workspaces are folders on the host's file system."""
    logs = tmp_path_factory.mktemp("unquoted")
    with running_shellctl(
        logs, env={"AGENT_BUILDER_SANDBOX_WORKSPACE_BYTES": "0"}, name="unquoted"
    ) as started:
        yield started


def test_the_file_api_refuses_hard_links(
    shellctl: Shellctl, unquoted: Shellctl, tmp_path_factory: pytest.TempPathFactory
) -> None:
    outside = tmp_path_factory.mktemp("outside") / "secret.txt"
    outside.write_text("host secret\n")
    for service in (shellctl, unquoted):
        session = new_session()
        service.exec(session, "echo inside > own.txt; ln own.txt twin.txt")
        paths = ["twin.txt"]
        with service.files_of(session) as files:
            try:
                os.link(outside, files / "linked.txt")  # what a command could do without a mount namespace
                paths.append("linked.txt")
            except OSError as exc:  # with a disk quota, the workspace is a file system of its own
                assert service is shellctl and exc.errno == errno.EXDEV, exc
        for path in paths:
            read = service.client.get(f"/sessions/{session}/files", params={"path": path})
            assert "other hard links" in json_error(read, 400, "invalid_path")["message"]
            write = service.client.put(f"/sessions/{session}/files", params={"path": path}, content=b"pwned")
            json_error(write, 400, "invalid_path")
    assert outside.read_text() == "host secret\n"


def test_the_file_api_refuses_special_files_without_hanging(shellctl: Shellctl) -> None:
    session = new_session()
    shellctl.exec(session, "mkfifo pipe")
    read = shellctl.client.get(f"/sessions/{session}/files", params={"path": "pipe"}, timeout=5)
    json_error(read, 400, "invalid_path")
    write = shellctl.client.put(
        f"/sessions/{session}/files", params={"path": "pipe"}, content=b"x", timeout=5
    )
    json_error(write, 400, "invalid_path")


def test_reading_a_folder_is_a_400_and_leaks_no_descriptor(shellctl: Shellctl) -> None:
    """Issue 25, item 9: reading a folder answered 500 and left its descriptor open (50 reads:
    11 -> 61 open descriptors in shellctl)."""
    session = new_session()
    shellctl.exec(session, "mkdir -p folder/inner")
    descriptors = Path(f"/proc/{shellctl.process.process.pid}/fd")

    def read_folder(path: str) -> httpx.Response:
        return shellctl.client.get(f"/sessions/{session}/files", params={"path": path})

    for path in ("folder", "folder/inner", "folder/"):
        message = json_error(read_folder(path), 400, "invalid_path")["message"]
        assert message == f"{path!r} is a folder."
    before = len(list(descriptors.iterdir()))
    for _ in range(50):
        json_error(read_folder("folder"), 400, "invalid_path")
    assert len(list(descriptors.iterdir())) == before


@pytest.mark.skipif(os.geteuid() != 0, reason="a disk quota needs loop mounts, so shellctl run as root")
def test_the_file_api_at_the_disk_quota(shellctl: Shellctl) -> None:
    session = new_session()
    fill = shellctl.exec(
        session, "head -c 60000000 /dev/zero > a; head -c 60000000 /dev/zero > b", timeout_s=60
    )
    assert "No space left on device" in fill["stderr"]

    def put(path: str) -> httpx.Response:
        return shellctl.client.put(
            f"/sessions/{session}/files", params={"path": path}, content=b"x" * 500_000
        )

    message = json_error(put("notes/more.txt"), 507, "workspace_full")["message"]
    assert message == "The workspace is full: no room for 'notes/more.txt'. Delete files to make room."
    left = shellctl.client.get(f"/sessions/{session}/files", params={"path": "notes/more.txt"})
    assert (left.status_code, left.content) == (200, b"")  # what did not fit is not kept
    shellctl.exec(session, "rm b")
    assert put("notes/more.txt").status_code == 200
