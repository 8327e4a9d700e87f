"""The host uids a shellctl run as root gives its owners: a range no other shellctl on the host uses.

Owner number N runs as uid base + N, and the kernel counts RLIMIT_NPROC per uid across the whole
host: two shellctls on one base would share each owner number's process limit, so one deployment's
agent could starve another's. A shellctl claims its base with a lock file under /run for as long as
it runs (the kernel drops the lock when the process ends, however it ends); another shellctl on the
same base refuses to start. Without AGENT_BUILDER_SANDBOX_UID_BASE a shellctl takes the first free
range of AUTO_OWNERS uids from AUTO_START and keeps it for its workspaces folder (their files belong
to those uids), noted in the folder.
"""

from __future__ import annotations

import fcntl
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from agent_builder.service_errors import ApiError
from agent_builder.shellctl.config import MAX_UID_BASE

LOCKS = Path("/run/agent-builder-shellctl")
AUTO_START = 0x7000_0000
AUTO_OWNERS = 1 << 24
RECORD = ".uid-base"  # in the workspaces folder: the base its workspaces' files belong to
_LARGEST_UID = 0xFFFF_FFFE  # (uid_t)-1 means "no uid"


class UidRangeTaken(Exception):
    """Every range this shellctl may use is another running shellctl's; the message says what to do."""


@dataclass(frozen=True)
class UidRange:
    base: int
    owners: int  # how many owner numbers it holds, from 0 (the start's probe)
    lock: IO[bytes] = field(repr=False)  # held open: closing it gives the range up

    def uid_for(self, serial: int) -> int:
        if serial >= self.owners:
            raise ApiError(507, "owners_exhausted", "This sandbox has no host uid left for a new owner.")
        return self.base + serial


def claim(workspaces_root: Path, configured_base: int | None) -> UidRange:
    """The range of `configured_base`, else the one `workspaces_root` was made with, else the first
    free automatic one; raises UidRangeTaken when it is (or all are) another shellctl's."""
    workspaces_root.mkdir(parents=True, exist_ok=True)
    record = workspaces_root / RECORD
    recorded = int(record.read_text()) if record.exists() else None
    if configured_base is not None:
        owners, candidates = _LARGEST_UID - configured_base + 1, [configured_base]
        taken = (
            f"Another shellctl on this host runs its owners as uids from {configured_base} "
            "(AGENT_BUILDER_SANDBOX_UID_BASE): give each shellctl a range of its own."
        )
    elif recorded is not None:
        owners, candidates = AUTO_OWNERS, [recorded]
        taken = (
            f"The workspaces in {workspaces_root} belong to uids from {recorded}, which another shellctl "
            "on this host uses now: stop it, or give this shellctl a workspaces folder of its own."
        )
    else:
        owners, candidates = AUTO_OWNERS, list(range(AUTO_START, MAX_UID_BASE, AUTO_OWNERS))
        taken = (
            f"All {len(candidates)} automatic uid ranges are other shellctls' on this host: "
            "set AGENT_BUILDER_SANDBOX_UID_BASE."
        )
    LOCKS.mkdir(mode=0o700, parents=True, exist_ok=True)
    for base in candidates:
        lock = open(LOCKS / f"uid-base-{base}.lock", "ab")  # noqa: SIM115 (held for the process's life)
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.close()
            continue
        if recorded != base:
            record.write_text(f"{base}\n")
            os.chmod(record, 0o600)
        return UidRange(base, owners, lock)
    raise UidRangeTaken(taken)
