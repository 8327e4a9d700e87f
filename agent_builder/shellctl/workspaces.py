"""Workspace folders, one per (owner, session), under names that say nothing about either.

A folder's name is random (`secrets.token_hex`), and only an index beside the folders maps an
owner and session to it: neither a session id nor a listing of the root (mode 0711: searchable,
not listable) leads a sandbox user to another workspace. The owner is whoever the workspaces
belong to (the console uses the agent id), so all of them can be removed at once.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from agent_builder.service_errors import ApiError

NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")  # session ids and owners alike
INDEX = ".index.sqlite3"  # never a workspace name: those are hex digits

_SCHEMA = """
CREATE TABLE IF NOT EXISTS workspaces (
    serial INTEGER PRIMARY KEY AUTOINCREMENT,  -- AUTOINCREMENT: a serial (and so a uid) is never reused
    owner TEXT NOT NULL,
    session TEXT NOT NULL,
    folder TEXT NOT NULL UNIQUE,
    UNIQUE (owner, session)
)
"""


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
    def __init__(self, root: Path, uid_for: Callable[[int], int | None]) -> None:
        root.mkdir(parents=True, exist_ok=True)
        os.chmod(root, 0o711)
        self.root = root.resolve()
        self._uid_for = uid_for
        self._index = sqlite3.connect(self.root / INDEX, isolation_level=None, check_same_thread=False)
        os.chmod(self.root / INDEX, 0o600)
        self._index.execute(_SCHEMA)

    def find(self, owner: str, session: str) -> Workspace | None:
        row = self._index.execute(
            "SELECT serial, folder FROM workspaces WHERE owner = ? AND session = ?", (owner, session)
        ).fetchone()
        return None if row is None else Workspace(self.root / row[1], self._uid_for(row[0]))

    def ensure(self, owner: str, session: str) -> Workspace:
        workspace = self.find(owner, session)
        if workspace is None:
            self._index.execute(
                "INSERT OR IGNORE INTO workspaces (owner, session, folder) VALUES (?, ?, ?)",
                (owner, session, secrets.token_hex(16)),
            )
            workspace = self.find(owner, session)
            assert workspace is not None
        try:
            workspace.path.mkdir(mode=0o700)
        except FileExistsError:
            return workspace
        if workspace.uid is not None:
            os.chown(workspace.path, workspace.uid, workspace.uid)
        return workspace

    def remove(self, owner: str, session: str) -> bool:
        """Remove the workspace (True), or report that there was none (False)."""
        workspace = self.find(owner, session)
        if workspace is None:
            return False
        _remove_tree(workspace.path)  # first: if it fails, the index still knows the folder
        self._index.execute("DELETE FROM workspaces WHERE owner = ? AND session = ?", (owner, session))
        return True

    def remove_owner(self, owner: str) -> int:
        """Remove every workspace of `owner`; returns how many there were."""
        sessions = self._index.execute("SELECT session FROM workspaces WHERE owner = ?", (owner,)).fetchall()
        return sum(self.remove(owner, session) for (session,) in sessions)


def _remove_tree(path: Path) -> None:
    try:
        shutil.rmtree(path)  # removes symlinks themselves, never what they point to
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise ApiError(
            409, "workspace_not_removed", f"The workspace could not be removed: {exc.strerror}."
        ) from None
