"""The host uids a shellctl run as root gives its owners: a range no other shellctl on the host uses.

Owner number N runs as uid base + N, and the kernel counts RLIMIT_NPROC per uid across the whole
host: two shellctls on one base would share each owner number's process limit, so one deployment's
agent could starve another's. A shellctl claims its base with a lock file in RANGES for as long as
it runs (the kernel drops the lock when the process ends, however it ends); another shellctl on the
same base refuses to start. Without AGENT_BUILDER_SANDBOX_UID_BASE a shellctl takes the first range
of AUTO_OWNERS uids from AUTO_START that is neither held nor reserved, and keeps it for its
workspaces folder (their files belong to those uids): the folder notes its base, and the lock file
names the folder, which reserves the range while that folder exists, even while its shellctl is
stopped or restarting.
"""

from __future__ import annotations

import fcntl
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from agent_builder.service_errors import ApiError
from agent_builder.shellctl.config import LARGEST_UID

RANGES = Path("/var/lib/agent-builder-shellctl/uid-ranges")  # a lock file per base, naming its folder
AUTO_START = 0x7000_0000
AUTO_END = 0x7FFE_0000  # systemd's range for foreign file ownership starts here
AUTO_OWNERS = 1 << 20  # 255 ranges: a host keeps leftover workspaces folders, each reserving one
RECORD = ".uid-base"  # in the workspaces folder: the base its workspaces' files belong to


class UidRangeTaken(Exception):
    """Every range this shellctl may use is another running shellctl's; the message says what to do."""


@dataclass(frozen=True)
class UidRange:
    base: int
    owners: int  # how many owner numbers it holds, from 0 (the start's probe)
    lock: IO[Any] = field(repr=False)  # held open: closing it gives the range up

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
        owners, candidates = LARGEST_UID - configured_base + 1, [configured_base]
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
        owners, candidates = AUTO_OWNERS, list(range(AUTO_START, AUTO_END - AUTO_OWNERS + 1, AUTO_OWNERS))
        taken = (
            f"All {len(candidates)} automatic uid ranges are held or reserved by other shellctls' "
            f"workspaces folders (each named in its file in {RANGES}): remove the folders no longer "
            "used, or set AGENT_BUILDER_SANDBOX_UID_BASE."
        )
    RANGES.mkdir(mode=0o700, parents=True, exist_ok=True)
    folder, fresh = str(workspaces_root.resolve()), configured_base is None and recorded is None
    for base in candidates:
        lock = _locked(RANGES / f"uid-base-{base}.lock")
        if lock is None:
            continue
        reserved_by = lock.read().strip()
        if fresh and _reserves(reserved_by, folder, base):  # another folder's, though stopped now
            lock.close()
            continue
        lock.seek(0)
        lock.truncate()
        lock.write(f"{folder}\n")
        lock.flush()
        if recorded != base:
            record.write_text(f"{base}\n")
            os.chmod(record, 0o600)
        return UidRange(base, owners, lock)
    raise UidRangeTaken(taken)


def _locked(path: Path) -> IO[Any] | None:
    """The lock file, open and locked by this process; None when another process holds it."""
    lock = os.fdopen(os.open(path, os.O_RDWR | os.O_CREAT, 0o600), "r+")  # held for the process's life
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.close()
        return None
    return lock


def _reserves(reserved_by: str, folder: str, base: int) -> bool:
    """Whether another workspaces folder, still there, was made with the uids from `base`."""
    if not reserved_by or reserved_by == folder:
        return False
    record = Path(reserved_by) / RECORD
    try:
        return record.read_text().strip() == str(base)
    except OSError:  # gone (a removed folder frees its range)
        return False
