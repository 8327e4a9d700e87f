"""Workspace folders, one per (owner, session), under names that say nothing about either.

A folder's name is random (`secrets.token_hex`), and only an index beside the folders maps an
owner and session to it: neither a session id nor a listing of the root (mode 0711: searchable,
not listable) leads a sandbox user to another workspace. The owner is whoever the workspaces
belong to (the console uses the agent id): all of them can be removed at once, and, run as root,
all of them run as the owner's uid, so the kernel counts their processes together (RLIMIT_NPROC).

A workspace is used through a lease, held while a command runs or the file API opens a file: with
disk quotas (disk.py) its file system is mounted while a lease is held. The index notes when each
workspace was last used; `remove_idle` removes those unused for long, never one in use.
"""

from __future__ import annotations

import logging
import os
import re
import secrets
import shutil
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from agent_builder.service_errors import ApiError
from agent_builder.shellctl.disk import DiskError, Disks, mounted_in
from agent_builder.shellctl.uid_range import UidRange

logger = logging.getLogger(__name__)

NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")  # session ids and owners alike
INDEX = ".index.sqlite3"  # never a workspace name: those are hex digits
IMAGE_SUFFIX = ".ext4"  # a workspace's file system, beside its folder (with disk quotas)
PROBE_SERIAL = 0  # the start's probe runs as uid_for(0); owners count from 1

# The index's layout (PRAGMA user_version). An index of another one (a shellctl from before owner
# uids and disk quotas, or run with the quota switched on or off since) starts afresh: its
# workspaces are removed, as their files belong to uids that now mean other owners.
_FOLDERS, _IMAGES = 2, 3
_SCHEMA = (
    """CREATE TABLE owners (
        serial INTEGER PRIMARY KEY AUTOINCREMENT,  -- AUTOINCREMENT: a serial (so a uid) is never reused
        owner TEXT NOT NULL UNIQUE
    )""",
    """CREATE TABLE workspaces (
        owner TEXT NOT NULL,
        session TEXT NOT NULL,
        folder TEXT NOT NULL UNIQUE,
        used REAL NOT NULL,  -- when a command or the file API last used it, seconds since the epoch
        PRIMARY KEY (owner, session)
    )""",
)


@dataclass(frozen=True)
class Workspace:
    path: Path
    uid: int | None  # the host uid its commands run as and its files belong to; None: shellctl's


def check_name(value: str, code: str, label: str) -> str:
    """`value` if it is a valid session id or owner, else a 400 with `code`."""
    if not NAME.fullmatch(value):
        raise ApiError(400, code, f"{label} are 1-64 characters of A-Z, a-z, 0-9, _ and -.")
    return value


class Workspaces:
    def __init__(self, root: Path, uids: UidRange | None, disks: Disks | None) -> None:
        root.mkdir(parents=True, exist_ok=True)
        os.chmod(root, 0o711)
        self.root = root.resolve()
        self._uids = uids  # None: every command runs as shellctl's own uid
        self._disks = disks
        self._leases: dict[str, int] = {}  # folder name: how many requests use that workspace now
        if disks is not None:
            for point in mounted_in(self.root):  # left by a shellctl that was killed
                disks.unmount(point)
        self._index = sqlite3.connect(self.root / INDEX, isolation_level=None, check_same_thread=False)
        os.chmod(self.root / INDEX, 0o600)
        self._open_index()

    @property
    def quota(self) -> int | None:
        """Each workspace's size in bytes; None: no quota."""
        return None if self._disks is None else self._disks.size

    def _open_index(self) -> None:
        layout = _FOLDERS if self._disks is None else _IMAGES
        if self._index.execute("PRAGMA user_version").fetchone()[0] == layout:
            return
        tables = {
            name for (name,) in self._index.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        folders = (
            self._index.execute("SELECT folder FROM workspaces").fetchall() if "workspaces" in tables else []
        )
        for (folder,) in folders:
            try:
                self._remove_files(self.root / folder)
            except ApiError as exc:
                logger.warning("workspace %s of an earlier layout: %s", folder, exc.message)
        self._index.execute("DROP TABLE IF EXISTS workspaces")
        self._index.execute("DROP TABLE IF EXISTS owners")
        for statement in _SCHEMA:
            self._index.execute(statement)
        self._index.execute(f"PRAGMA user_version = {layout}")
        if folders:
            logger.warning(
                "%d workspaces of an earlier layout removed (owner uids, disk quotas)", len(folders)
            )

    def find(self, owner: str, session: str) -> Workspace | None:
        row = self._index.execute(
            "SELECT owners.serial, folder FROM workspaces JOIN owners USING (owner) "
            "WHERE owner = ? AND session = ?",
            (owner, session),
        ).fetchone()
        return None if row is None else Workspace(self.root / row[1], self._uid_for(row[0]))

    def _uid_for(self, serial: int) -> int | None:
        return None if self._uids is None else self._uids.uid_for(serial)

    @contextmanager
    def lease(self, owner: str, session: str, *, create: bool) -> Iterator[Workspace]:
        """The session's workspace, ready to use (with quotas: mounted) until the block ends. Without
        `create`, a session that has none is a 404."""
        workspace = self.find(owner, session)
        if workspace is None and not create:
            raise ApiError(404, "file_not_found", "This session has no workspace yet.")
        if workspace is None:
            self._index.execute("INSERT OR IGNORE INTO owners (owner) VALUES (?)", (owner,))
            self._index.execute(
                "INSERT OR IGNORE INTO workspaces (owner, session, folder, used) VALUES (?, ?, ?, ?)",
                (owner, session, secrets.token_hex(16), time.time()),
            )
            workspace = self.find(owner, session)
            assert workspace is not None
        try:
            self._acquire(workspace)
        except DiskError as exc:
            logger.error("workspace %s: %s", workspace.path.name, exc)
            raise ApiError(
                503, "workspace_unavailable", "The workspace's file system could not be mounted."
            ) from None
        try:
            yield workspace
        finally:
            self._release(workspace)
            self._index.execute(
                "UPDATE workspaces SET used = ? WHERE folder = ?", (time.time(), workspace.path.name)
            )

    @contextmanager
    def scratch(self) -> Iterator[Workspace]:
        """A workspace of no owner, made like any other and removed afterwards (the start's probe).
        Raises DiskError when its file system cannot be made or mounted."""
        workspace = Workspace(self.root / f".probe-{secrets.token_hex(8)}", self._uid_for(PROBE_SERIAL))
        try:
            self._acquire(workspace)
            try:
                yield workspace
            finally:
                self._release(workspace)
        finally:
            self._remove_files(workspace.path)

    def remove(self, owner: str, session: str) -> bool:
        """Remove the workspace (True), or report that there was none (False)."""
        workspace = self.find(owner, session)
        if workspace is None:
            return False
        self._remove_files(workspace.path)  # first: if it fails, the index still knows the folder
        self._index.execute("DELETE FROM workspaces WHERE owner = ? AND session = ?", (owner, session))
        return True

    def remove_owner(self, owner: str) -> int:
        """Remove every workspace of `owner`, and the owner; returns how many workspaces there were."""
        sessions = self._index.execute("SELECT session FROM workspaces WHERE owner = ?", (owner,)).fetchall()
        removed = sum(self.remove(owner, session) for (session,) in sessions)
        self._index.execute("DELETE FROM owners WHERE owner = ?", (owner,))
        return removed

    def remove_idle(self, unused_since: float) -> int:
        """Remove every workspace last used before `unused_since` (seconds since the epoch) and not
        in use now; returns how many."""
        rows = self._index.execute(
            "SELECT owner, session, folder FROM workspaces WHERE used < ?", (unused_since,)
        ).fetchall()
        removed = 0
        for owner, session, folder in rows:
            if folder in self._leases:  # a command runs in it (for longer than the idle time)
                continue
            try:
                removed += self.remove(owner, session)
            except ApiError as exc:
                logger.warning("idle workspace %s not removed: %s", folder, exc.message)
        return removed

    def unmount_all(self) -> None:
        """At stop: unmount what requests that never finished left mounted."""
        for name in list(self._leases):
            self._unmount(self.root / name)
        self._leases.clear()

    def _acquire(self, workspace: Workspace) -> None:
        name = workspace.path.name
        if not self._leases.get(name):
            self._prepare(workspace)
        self._leases[name] = self._leases.get(name, 0) + 1

    def _release(self, workspace: Workspace) -> None:
        name = workspace.path.name
        users = self._leases.get(name, 0) - 1
        if users > 0:
            self._leases[name] = users
            return
        self._leases.pop(name, None)
        self._unmount(workspace.path)

    def _prepare(self, workspace: Workspace) -> None:
        """The workspace's folder (mode 0700, its uid's), and with quotas its file system, mounted."""
        path, uid = workspace.path, workspace.uid
        try:
            path.mkdir(mode=0o700)  # with quotas: the mount point, root's, unusable unmounted
        except FileExistsError:
            pass
        else:
            if uid is not None and self._disks is None:
                os.chown(path, uid, uid)
        if self._disks is None:
            return
        image = path.with_name(path.name + IMAGE_SUFFIX)
        created = not image.exists()
        if created:
            self._disks.create(image, 0 if uid is None else uid)
        if not os.path.ismount(path):
            self._disks.mount(image, path)
        if created:
            (path / "lost+found").rmdir()  # mkfs's, root's: an empty workspace lists nothing
            os.chmod(path, 0o700)

    def _unmount(self, path: Path) -> None:
        if self._disks is None or not os.path.ismount(path):
            return
        try:
            self._disks.unmount(path)
        except DiskError as exc:
            logger.error("workspace %s: %s", path.name, exc)

    def _remove_files(self, path: Path) -> None:
        """The workspace's folder and file system, unmounted first (a command using it keeps what it
        has until it ends)."""
        if self._disks is not None and os.path.ismount(path):
            try:
                self._disks.unmount(path)
            except DiskError as exc:
                raise ApiError(
                    409, "workspace_not_removed", f"The workspace could not be removed: {exc}."
                ) from None
        path.with_name(path.name + IMAGE_SUFFIX).unlink(missing_ok=True)
        _remove_tree(path)


def _remove_tree(path: Path) -> None:
    try:
        shutil.rmtree(path)  # removes symlinks themselves, never what they point to
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise ApiError(
            409, "workspace_not_removed", f"The workspace could not be removed: {exc.strerror}."
        ) from None
