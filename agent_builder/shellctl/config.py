"""shellctl settings, from the environment. Every variable is documented in docs/runtime.md."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

MIN_TOKEN_CHARS = 16
MAX_UID_BASE = 0xF000_0000


@dataclass(frozen=True)
class Limits:
    """Kernel resource limits (setrlimit) of every command; each process of it gets them."""

    processes: int = 128  # RLIMIT_NPROC: processes and threads at once
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
    # When shellctl runs as root, workspace number N runs as host uid/gid uid_base + N: never root,
    # and never the uid of another workspace (so RLIMIT_NPROC is counted per workspace too).
    uid_base: int = 0x7000_0000

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> ShellctlConfig:
        env = os.environ if environ is None else environ
        token = env.get("AGENT_BUILDER_SHELLCTL_TOKEN") or None
        if token is not None and len(token) < MIN_TOKEN_CHARS:
            raise ValueError(f"AGENT_BUILDER_SHELLCTL_TOKEN must be at least {MIN_TOKEN_CHARS} characters")
        defaults = Limits()
        limits = Limits(
            processes=_positive(env, "AGENT_BUILDER_SANDBOX_MAX_PROCESSES", defaults.processes),
            file_bytes=_positive(env, "AGENT_BUILDER_SANDBOX_MAX_FILE_BYTES", defaults.file_bytes),
            cpu_seconds=_positive(env, "AGENT_BUILDER_SANDBOX_CPU_SECONDS", defaults.cpu_seconds),
            memory_bytes=_positive(env, "AGENT_BUILDER_SANDBOX_MEMORY_BYTES", defaults.memory_bytes),
            tmp_bytes=_positive(env, "AGENT_BUILDER_SANDBOX_TMP_BYTES", defaults.tmp_bytes),
        )
        uid_base = _positive(env, "AGENT_BUILDER_SANDBOX_UID_BASE", cls.uid_base)
        if uid_base > MAX_UID_BASE:  # room for the workspace numbers below the largest uid
            raise ValueError(f"AGENT_BUILDER_SANDBOX_UID_BASE must be at most {MAX_UID_BASE}, got {uid_base}")
        network = _flag(env, "AGENT_BUILDER_SANDBOX_NETWORK")
        return cls(token=token, network=network, limits=limits, uid_base=uid_base)


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


def _flag(env: Mapping[str, str], name: str) -> bool:
    raw = env.get(name) or "0"
    if raw not in ("0", "1"):
        raise ValueError(f"{name} must be 0 or 1, got {raw!r}")
    return raw == "1"
