"""shellctl settings, from the environment. Every variable is documented in docs/runtime.md."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

MIN_TOKEN_CHARS = 16
# Programs that treat uid_t as signed misread larger uids: bwrap writes its uid map with %d and
# fails ("setting up uid map: Invalid argument"), so every owner's uid stays at most this.
LARGEST_UID = 0x7FFF_FFFF
MAX_UID_BASE = LARGEST_UID + 1 - (1 << 16)  # room for 65536 owner numbers below LARGEST_UID
MIN_WORKSPACE_BYTES = 1 << 20  # a smaller ext4 file system has no room for its own tables
_RENAMED = {
    "AGENT_BUILDER_SANDBOX_MAX_PROCESSES": "AGENT_BUILDER_SANDBOX_MAX_PROCESSES_PER_OWNER (the limit now "
    "counts the processes of every workspace of an owner together)"
}


@dataclass(frozen=True)
class Limits:
    """Kernel resource limits (setrlimit) of every command; each process of it gets them."""

    # RLIMIT_NPROC: processes and threads at once, of all commands of one owner together (as root,
    # every workspace of an owner runs as the owner's uid, and the kernel counts per uid).
    processes: int = 256
    file_bytes: int = 64 << 20  # RLIMIT_FSIZE: the largest file a command may write
    cpu_seconds: int = 60  # RLIMIT_CPU: CPU time of each process (the timeout bounds wall time)
    memory_bytes: int = 1 << 30  # RLIMIT_AS: address space of each process
    tmp_bytes: int = 64 << 20  # size of the sandbox's /tmp and /dev/shm (memory-backed), each


@dataclass(frozen=True)
class ShellctlConfig:
    # Required on every request but /healthz when set; repr=False keeps it out of any log line.
    token: str | None = field(default=None, repr=False)
    network: bool = False  # commands get the host's network instead of an empty namespace
    limits: Limits = Limits()
    # When shellctl runs as root, owner number N runs as host uid/gid uid_base + N: never root,
    # and never the uid of another owner (so RLIMIT_NPROC is counted per owner). None: a free
    # range of the host's, claimed at start (uid_range.py).
    uid_base: int | None = None
    # As root: each workspace is an ext4 file system of this size (0: none, the host's disk).
    workspace_bytes: int = 100 << 20
    idle_seconds: int = 24 * 3600  # a workspace unused for this long is removed

    @property
    def sweep_interval_s(self) -> float:
        """How often to look for idle workspaces: a quarter of the idle time, at most a minute."""
        return min(60.0, self.idle_seconds / 4)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> ShellctlConfig:
        env = os.environ if environ is None else environ
        token = env.get("AGENT_BUILDER_SHELLCTL_TOKEN") or None
        if token is not None and len(token) < MIN_TOKEN_CHARS:
            raise ValueError(f"AGENT_BUILDER_SHELLCTL_TOKEN must be at least {MIN_TOKEN_CHARS} characters")
        for old, new in _RENAMED.items():
            if env.get(old):
                raise ValueError(f"{old} was renamed to {new}")
        defaults = Limits()
        limits = Limits(
            processes=_positive(env, "AGENT_BUILDER_SANDBOX_MAX_PROCESSES_PER_OWNER", defaults.processes),
            file_bytes=_positive(env, "AGENT_BUILDER_SANDBOX_MAX_FILE_BYTES", defaults.file_bytes),
            cpu_seconds=_positive(env, "AGENT_BUILDER_SANDBOX_CPU_SECONDS", defaults.cpu_seconds),
            memory_bytes=_positive(env, "AGENT_BUILDER_SANDBOX_MEMORY_BYTES", defaults.memory_bytes),
            tmp_bytes=_positive(env, "AGENT_BUILDER_SANDBOX_TMP_BYTES", defaults.tmp_bytes),
        )
        uid_base = _positive(env, "AGENT_BUILDER_SANDBOX_UID_BASE", 0) or None
        if uid_base is not None and uid_base > MAX_UID_BASE:
            raise ValueError(f"AGENT_BUILDER_SANDBOX_UID_BASE must be at most {MAX_UID_BASE}, got {uid_base}")
        workspace_bytes = _size(env, "AGENT_BUILDER_SANDBOX_WORKSPACE_BYTES", cls.workspace_bytes)
        return cls(
            token=token,
            network=_flag(env, "AGENT_BUILDER_SANDBOX_NETWORK"),
            limits=limits,
            uid_base=uid_base,
            workspace_bytes=workspace_bytes,
            idle_seconds=_positive(env, "AGENT_BUILDER_SANDBOX_IDLE_SECONDS", cls.idle_seconds),
        )


def _positive(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name)
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        value = 0
    if value <= 0:
        raise ValueError(f"{name} must be a positive integer, got {raw!r}")
    return value


def _size(env: Mapping[str, str], name: str, default: int) -> int:
    """A workspace size: 0 (no quota) or at least MIN_WORKSPACE_BYTES."""
    if env.get(name) == "0":
        return 0
    value = _positive(env, name, default)
    if value < MIN_WORKSPACE_BYTES:
        raise ValueError(f"{name} must be 0 (no quota) or at least {MIN_WORKSPACE_BYTES}, got {value}")
    return value


def _flag(env: Mapping[str, str], name: str) -> bool:
    raw = env.get(name) or "0"
    if raw not in ("0", "1"):
        raise ValueError(f"{name} must be 0 or 1, got {raw!r}")
    return raw == "1"
