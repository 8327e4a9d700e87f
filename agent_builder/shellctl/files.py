"""The file API's view of a workspace: paths opened one component at a time, never through a link.

Every component is opened relative to the folder before it with O_NOFOLLOW, so neither a symlink
(anywhere on the path, whoever made it and whenever) nor `..` can lead outside. A regular file with
more than one hard link is refused too: its other name may be outside the workspace.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from typing import BinaryIO

from agent_builder.service_errors import ApiError
from agent_builder.shellctl.workspaces import Workspace

_CHUNK_BYTES = 64 * 1024
_FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
# O_NONBLOCK: opening a FIFO must not hang the service (it is refused right after, by type).
_READ = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_WRITE = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


def _invalid(message: str) -> ApiError:
    return ApiError(400, "invalid_path", message)


def _components(relative: str) -> list[str]:
    if "\x00" in relative or not relative or relative.startswith("/"):
        raise _invalid("The path must be relative to the workspace, without '..'.")
    try:
        relative.encode()
    except UnicodeEncodeError:
        raise _invalid("The path must be valid UTF-8 text.") from None
    parts = [part for part in relative.split("/") if part not in ("", ".")]
    if ".." in parts:
        raise _invalid("The path must be relative to the workspace, without '..'.")
    if not parts:
        raise _invalid("The path must name a file inside the workspace.")
    return parts


_REASONS = {
    errno.ELOOP: "is a symbolic link",
    errno.ENOTDIR: "is a symbolic link or a file, not a folder",
    errno.EISDIR: "is a folder",
    errno.ENXIO: "is not a regular file",  # a FIFO nobody reads
}


def _full(shown: str) -> ApiError:
    return ApiError(
        507, "workspace_full", f"The workspace is full: no room for {shown!r}. Delete files to make room."
    )


def _open_at(name: str, folder: int, flags: int, shown: str) -> int:
    try:
        return os.open(name, flags, 0o644, dir_fd=folder)
    except FileNotFoundError:
        raise ApiError(404, "file_not_found", f"No file at {shown!r} in this workspace.") from None
    except OSError as exc:
        if exc.errno == errno.ENOSPC:
            raise _full(shown) from None
        reason = _REASONS.get(exc.errno or 0, f"cannot be opened ({exc.strerror})")
        raise _invalid(f"{shown!r} {reason}.") from None


@contextmanager
def _folder(workspace: Workspace, parts: list[str], create: bool) -> Iterator[int]:
    """An fd of the folder holding the last component, reached without following any link."""
    try:
        fd = os.open(workspace.path, _FOLDER)
    except FileNotFoundError:
        raise ApiError(404, "file_not_found", "This workspace has no files.") from None
    try:
        for depth, part in enumerate(parts, start=1):
            shown = "/".join(parts[:depth])
            if create:
                _make_folder(part, fd, workspace.uid, shown)
            next_fd = _open_at(part, fd, _FOLDER, shown)
            os.close(fd)
            fd = next_fd
        yield fd
    finally:
        os.close(fd)


def _make_folder(name: str, folder: int, uid: int | None, shown: str) -> None:
    try:
        os.mkdir(name, 0o755, dir_fd=folder)
    except FileExistsError:
        return  # a folder already (or not: opening it says so)
    except OSError as exc:
        if exc.errno == errno.ENOSPC:
            raise _full(shown) from None
        raise _invalid(f"Cannot create {shown!r}: {exc.strerror}.") from None
    if uid is not None:
        os.chown(name, uid, uid, dir_fd=folder, follow_symlinks=False)


def _checked(fd: int, shown: str) -> os.stat_result:
    info = os.fstat(fd)
    if stat.S_ISDIR(info.st_mode):
        raise _invalid(f"{shown!r} is a folder.")
    if not stat.S_ISREG(info.st_mode):
        raise _invalid(f"{shown!r} is not a regular file.")
    if info.st_nlink > 1:
        raise _invalid(f"{shown!r} has other hard links, which may lead outside the workspace.")
    return info


def open_for_reading(workspace: Workspace, relative: str) -> tuple[BinaryIO, int]:
    """The regular file at `relative`, open, and its size; closed when the caller drops it."""
    parts = _components(relative)
    with _folder(workspace, parts[:-1], create=False) as folder:
        fd = _open_at(parts[-1], folder, _READ, relative)
    try:
        # Checked before fdopen: it refuses a folder with IsADirectoryError (a 500) and would
        # leave the fd open.
        size = _checked(fd, relative).st_size
        file = os.fdopen(fd, "rb")  # from here on, the file object owns (and closes) the fd
    except BaseException:
        os.close(fd)
        raise
    return file, size


def chunks(file: BinaryIO) -> Iterator[bytes]:
    """The file's bytes, then it is closed."""
    with file:
        while chunk := file.read(_CHUNK_BYTES):
            yield chunk


def write(workspace: Workspace, relative: str, content: bytes) -> None:
    """Create or replace the file at `relative`, creating its folders. Content that does not fit in
    the workspace's quota is a 507, and leaves the file empty (the room it took is free again)."""
    parts = _components(relative)
    with _folder(workspace, parts[:-1], create=True) as folder:
        fd = _open_at(parts[-1], folder, _WRITE, relative)
    try:
        _checked(fd, relative)  # before truncating: a hard link's other name must stay intact
        if workspace.uid is not None:
            os.fchown(fd, workspace.uid, workspace.uid)
        os.ftruncate(fd, 0)
        view = memoryview(content)
        while view:
            view = view[os.write(fd, view) :]
    except OSError as exc:
        if exc.errno != errno.ENOSPC:
            raise _invalid(f"Cannot write {relative!r}: {exc.strerror}.") from None
        os.ftruncate(fd, 0)
        raise _full(relative) from None
    finally:
        os.close(fd)
