"""Per-session workspace folders, and resolution of client paths that must stay inside them.

The path checks guard the file API only. Shell commands are not confined: the workspace is their
working directory and HOME, nothing more (no namespaces, no chroot).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path, PurePosixPath

from agent_builder.service_errors import ApiError

SESSION_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


class Workspaces:
    def __init__(self, root: Path) -> None:
        root.mkdir(parents=True, exist_ok=True)
        self.root = root.resolve()

    def path(self, session_id: str) -> Path:
        """The session's workspace folder (not necessarily existing yet)."""
        if not SESSION_ID.fullmatch(session_id):
            raise ApiError(
                400, "invalid_session_id", "Session ids are 1-64 characters of A-Z, a-z, 0-9, _ and -."
            )
        return self.root / session_id

    def ensure(self, session_id: str) -> Path:
        workspace = self.path(session_id)
        workspace.mkdir(exist_ok=True)
        return workspace

    def remove(self, session_id: str) -> None:
        workspace = self.path(session_id)
        try:
            shutil.rmtree(workspace)  # removes symlinks themselves, never what they point to
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise ApiError(
                409, "workspace_not_removed", f"The workspace could not be removed: {exc.strerror}."
            ) from None

    def file(self, session_id: str, relative: str) -> Path:
        """`relative` inside the session's workspace, after following symlinks; 400 if it leaves it."""
        workspace = self.path(session_id)
        parts = PurePosixPath(relative).parts
        if not relative or relative.startswith("/") or ".." in parts or "\x00" in relative:
            raise ApiError(400, "invalid_path", "The path must be relative to the workspace, without '..'.")
        target = (workspace / relative).resolve()
        # resolve() follows every symlink on the way (the workspace folder itself included, as a
        # command may replace it), so a link pointing out is caught here; `root` is already resolved.
        if target == workspace or not target.is_relative_to(workspace):
            raise ApiError(400, "invalid_path", "The path must name a file inside the workspace.")
        return target
