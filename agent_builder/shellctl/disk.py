"""Workspace disk quotas: run as root, shellctl makes every workspace a file system of its own.

Each workspace is an ext4 image of `AGENT_BUILDER_SANDBOX_WORKSPACE_BYTES` (a sparse file beside its
folder, mode 0600, root's), mounted on the folder (loop device, nosuid, nodev) only while a command
or the file API uses it. A write beyond the image fails with ENOSPC, inside the sandbox and in the
file API alike, and the host never holds more than the image's size for it. Unmounting is lazy: a
file the file API is still sending keeps the file system alive, and mount(8) reuses the loop device
of an image that is still attached (util-linux 2.29 and later), so no image is ever mounted twice.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

_SYSTEM_PATH = "/usr/sbin:/usr/bin:/sbin:/bin"  # mkfs.ext4 is in sbin, which a service's PATH may lack
_TIMEOUT_S = 30
_MISSING = (
    "Workspace disk quotas (AGENT_BUILDER_SANDBOX_WORKSPACE_BYTES) need `{tool}`, which was not found. "
    "Install Debian's {package} package (`apt-get install {package}`), or set "
    "AGENT_BUILDER_SANDBOX_WORKSPACE_BYTES=0 (no quota: commands can fill the host's disk)."
)
BROKEN = (
    "Workspace disk quotas (AGENT_BUILDER_SANDBOX_WORKSPACE_BYTES) need an ext4 file system on a loop "
    "device, and making one failed: {detail}. Run shellctl as root where /dev/loop-control exists (a "
    "container needs the loop devices and CAP_SYS_ADMIN), or set AGENT_BUILDER_SANDBOX_WORKSPACE_BYTES=0 "
    "(no quota: commands can fill the host's disk)."
)


class DiskError(Exception):
    """A workspace's file system could not be made, mounted or unmounted."""


@dataclass(frozen=True)
class Disks:
    """How workspace file systems of `size` bytes are made, mounted and unmounted."""

    size: int
    mkfs: str
    mount_tool: str
    umount_tool: str

    @classmethod
    def find(cls, size: int) -> Disks:
        """Raises DiskError naming the package of a missing tool."""
        return cls(size, _find("mkfs.ext4", "e2fsprogs"), _find("mount", "mount"), _find("umount", "mount"))

    def create(self, image: Path, uid: int) -> None:
        """A new, sparse, empty file system in the file `image`, its root folder `uid`'s."""
        partial = image.with_name(image.name + ".partial")  # renamed once formatted: never half an image
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        try:
            os.ftruncate(fd, self.size)
        finally:
            os.close(fd)
        # No reserved blocks (root gets no extra room either), no journal (scratch space, and no
        # journal thread per mount), no discard (the file is sparse already).
        options = f"root_owner={uid}:{uid},nodiscard"
        try:
            _run(self.mkfs, "-q", "-F", "-m", "0", "-O", "^has_journal", "-E", options, str(partial))
        except DiskError:
            partial.unlink()
            raise
        os.replace(partial, image)

    def mount(self, image: Path, folder: Path) -> None:
        _run(self.mount_tool, "-t", "ext4", "-o", "loop,nosuid,nodev,noatime", str(image), str(folder))

    def unmount(self, folder: Path) -> None:
        """Detach the file system at `folder` now; the kernel frees it once nothing uses it."""
        _run(self.umount_tool, "--lazy", str(folder))


def mounted_in(root: Path) -> list[Path]:
    """Mount points directly inside `root`: what a shellctl that was killed left mounted."""
    found = []
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        point = Path(re.sub(r"\\([0-7]{3})", lambda code: chr(int(code[1], 8)), line.split()[4]))
        if point.parent == root:
            found.append(point)
    return found


def _find(tool: str, package: str) -> str:
    path = shutil.which(tool, path=f"{os.environ.get('PATH', '')}:{_SYSTEM_PATH}")
    if path is None:
        raise DiskError(_MISSING.format(tool=tool, package=package))
    return path


def _run(*argv: str) -> None:
    """Run a tool with nothing of shellctl's environment (its token), in English; DiskError on failure."""
    env = {"PATH": _SYSTEM_PATH, "LC_ALL": "C"}
    try:
        result = subprocess.run(
            argv, capture_output=True, text=True, timeout=_TIMEOUT_S, check=False, env=env
        )
    except (OSError, subprocess.SubprocessError) as exc:
        raise DiskError(_detail(argv[0], str(exc))) from None
    if result.returncode != 0:
        raise DiskError(_detail(argv[0], result.stderr or f"exit code {result.returncode}"))


def _detail(tool: str, output: str) -> str:
    """The last line of a tool's error output, starting with the tool's name."""
    name, line = Path(tool).name, (output.strip().splitlines() or [""])[-1].rstrip(".")
    return line if line.startswith(f"{name}:") else f"{name}: {line}"
