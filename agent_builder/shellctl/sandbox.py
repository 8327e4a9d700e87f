"""How one command starts: inside bubblewrap (the default), or unconfined with --no-isolation.

Inside bubblewrap a command gets new PID, IPC, UTS, network, mount, cgroup and user namespaces;
a read-only minimal system (/usr, the /bin and /lib links, a few /etc files); the workspace at
/workspace as its only writable folder besides two small tmpfs (/tmp, /dev/shm); a fresh /proc
of its own PID namespace; and an environment of PATH, HOME, LANG and TERM only. Both modes start
the command under `prlimit`, so every process of it has the configured resource limits.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from agent_builder.shellctl.config import Limits, ShellctlConfig
from agent_builder.shellctl.workspaces import Workspace

Isolation = Literal["bubblewrap", "none"]
INSIDE_WORKSPACE = "/workspace"
SKILLS_FOLDER = "skills"  # the agent's skills, written by the runtime, read-only for commands
SANDBOX_UID = 1000  # the command's uid and gid inside its user namespace
_PATH = "/usr/local/bin:/usr/bin:/bin"
_TOP_LEVEL = ("bin", "sbin", "lib", "lib64")  # no lib32/libx32: the sandbox runs 64-bit programs
# What a shell and common tools read from /etc; nothing holding credentials (shadow, ssh, ...).
_ETC = (
    "alternatives",
    "debian_version",
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "localtime",
    "magic",
    "mime.types",
    "nsswitch.conf",
    "os-release",
    "protocols",
    "services",
)
_ETC_NETWORK = ("ca-certificates", "ca-certificates.conf", "gai.conf", "hosts", "resolv.conf", "ssl")
_PASSWD = (
    "root:x:0:0:root:/root:/usr/sbin/nologin\n"
    f"sandbox:x:{SANDBOX_UID}:{SANDBOX_UID}:sandbox:{INSIDE_WORKSPACE}:/bin/sh\n"
    "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n"
)
_GROUP = f"root:x:0:\nsandbox:x:{SANDBOX_UID}:\nnogroup:x:65534:\n"
_HOSTS = "127.0.0.1\tlocalhost sandbox\n::1\tlocalhost ip6-localhost ip6-loopback\n"

_MISSING = (
    "shellctl starts every command with `{tool}`, and it was not found on PATH. Install Debian's "
    "{package} package (`apt-get install {package}`, or `make setup`).{hint}"
)
_UNCONFINED_HINT = (
    " Or, on a development machine only, start shellctl with --no-isolation (commands then run unconfined)."
)
_BROKEN = (
    "bubblewrap is installed but could not start a sandbox: {detail}. It needs unprivileged user "
    "namespaces (Debian: sysctl kernel.unprivileged_userns_clone=1; Ubuntu 24.04: an AppArmor profile "
    "for bwrap, or sysctl kernel.apparmor_restrict_unprivileged_userns=0). Or, on a development "
    "machine only, start shellctl with --no-isolation."
)


class SandboxUnavailable(Exception):
    pass


@dataclass(frozen=True)
class Launch:
    """A ready-to-start command: its argv, environment, working directory and host user."""

    argv: list[str]
    env: dict[str, str]
    cwd: str
    uid: int | None  # None: shellctl's own user
    pass_fds: tuple[int, ...]

    def popen_kwargs(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"env": self.env, "cwd": self.cwd, "pass_fds": self.pass_fds}
        if self.uid is not None:
            kwargs |= {"user": self.uid, "group": self.uid, "extra_groups": []}
        return kwargs


class Sandbox:
    def __init__(self, config: ShellctlConfig, isolated: bool = True) -> None:
        self.isolation: Isolation = "bubblewrap" if isolated else "none"
        self._config = config
        self._prlimit = _find("prlimit", "util-linux")
        self._bwrap = _find("bwrap", "bubblewrap", _UNCONFINED_HINT) if isolated else None
        self._system = _system_mounts(config.network)

    @property
    def owners_run_as_uids(self) -> bool:
        """Whether each owner's commands run as a host uid of its own (as root), else as shellctl's."""
        return self._bwrap is not None and os.geteuid() == 0

    @contextmanager
    def launch(
        self, command: str, workspace: Workspace, extra_env: Mapping[str, str] | None = None
    ) -> Iterator[Launch]:
        """`extra_env`: the request's variables (the agent's plain ones); the sandbox's own win."""
        limits = _prlimit_argv(self._prlimit, self._config.limits)
        if self._bwrap is None:
            env = _command_env(str(workspace.path), extra_env or {})
            yield Launch([*limits, "/bin/sh", "-c", command], env, str(workspace.path), None, ())
            return
        files = {"passwd": _PASSWD, "group": _GROUP}
        if not self._config.network:
            files["hosts"] = _HOSTS
        fds = {name: _memory_file(content.encode()) for name, content in files.items()}
        skills = _skills_folder(workspace)
        try:
            # The options go through a file descriptor: the sandbox can read its pid 1's command line,
            # and they name host paths. bwrap's own environment is empty for the same reason.
            options = self._options(workspace, fds, extra_env or {}, skills)
            if skills is not None:
                fds["skills"] = skills  # passed to bwrap, and closed with the others
            fds["options"] = _memory_file(b"".join(f"{option}\0".encode() for option in options))
            argv = [*limits, self._bwrap, "--args", str(fds["options"]), "--", "/bin/sh", "-c", command]
            yield Launch(argv, {}, "/", workspace.uid, tuple(fds.values()))
        finally:
            for fd in fds.values():
                os.close(fd)

    def _options(
        self,
        workspace: Workspace,
        fds: dict[str, int],
        extra_env: Mapping[str, str],
        skills: int | None = None,
    ) -> list[str]:
        """bwrap's options, in order: later mounts go on top of earlier ones."""
        uid, tmp_size = str(SANDBOX_UID), str(self._config.limits.tmp_bytes)
        options = ["--unshare-all", *(["--share-net"] if self._config.network else [])]
        options += ["--unshare-user", "--disable-userns", "--uid", uid, "--gid", uid]
        options += ["--hostname", "sandbox", "--die-with-parent", "--new-session", *self._system]
        for name, fd in fds.items():
            options += ["--perms", "0644", "--ro-bind-data", str(fd), f"/etc/{name}"]
        options += ["--proc", "/proc", "--dev", "/dev", "--size", tmp_size, "--tmpfs", "/dev/shm"]
        options += ["--remount-ro", "/dev", "--size", tmp_size, "--tmpfs", "/tmp"]
        options += ["--bind", str(workspace.path), INSIDE_WORKSPACE, "--chdir", INSIDE_WORKSPACE]
        if skills is not None:
            options += ["--ro-bind-fd", str(skills), f"{INSIDE_WORKSPACE}/{SKILLS_FOLDER}"]
        options += ["--remount-ro", "/", "--clearenv"]
        for name, value in _command_env(INSIDE_WORKSPACE, extra_env).items():
            options += ["--setenv", name, value]
        return options

    def probe(self, workspace: Workspace) -> None:
        """Start one command the way every command starts, in `workspace` (a scratch one, made
        like every other); raise SandboxUnavailable if it fails."""
        if workspace.uid is not None:
            _check_reachable(workspace.path.parent.resolve())
        with self.launch("echo ok", workspace) as launch:
            try:
                result = subprocess.run(
                    launch.argv,
                    check=False,
                    capture_output=True,
                    text=True,
                    timeout=30,
                    **launch.popen_kwargs(),
                )
            except (OSError, subprocess.SubprocessError) as exc:
                raise SandboxUnavailable(_BROKEN.format(detail=str(exc))) from None
        if result.returncode != 0 or result.stdout != "ok\n":
            detail = result.stderr.strip().splitlines()[-1:] or [f"exit code {result.returncode}"]
            raise SandboxUnavailable(_BROKEN.format(detail=detail[0]))


def _check_reachable(root: Path) -> None:
    """bwrap runs as the workspace's uid, so that uid must be able to search the root's parents."""
    for folder in root.parents:
        if not os.stat(folder).st_mode & stat.S_IXOTH:
            raise SandboxUnavailable(
                f"Sandbox users cannot reach the workspaces folder {root}: {folder} is not searchable by "
                f"other users. Run `chmod o+x {folder}`, or pick a workspaces folder elsewhere."
            )


def _skills_folder(workspace: Workspace) -> int | None:
    """The workspace's skills folder, opened without following a link (a command may have put one
    in its place), for bwrap to mount read-only over itself; None when there is none."""
    try:
        return os.open(
            workspace.path / SKILLS_FOLDER, os.O_PATH | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
        )
    except OSError:
        return None


def _find(tool: str, package: str, hint: str = "") -> str:
    path = shutil.which(tool)
    if path is None:
        raise SandboxUnavailable(_MISSING.format(tool=tool, package=package, hint=hint))
    return path


def _system_mounts(network: bool) -> list[str]:
    """Read-only /usr, the top-level links into it (the folders themselves without merged /usr),
    and /etc. The same four top-level names on every host, so a sandbox's `/` looks the same."""
    mounts = ["--ro-bind", "/usr", "/usr"]
    for name in _TOP_LEVEL:
        path = Path("/", name)
        if path.is_dir() and not path.is_symlink():
            mounts += ["--ro-bind", str(path), str(path)]
        else:
            mounts += ["--symlink", f"usr/{name}", str(path)]
    for name in _ETC + (_ETC_NETWORK if network else ()):
        mounts += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
    return mounts


def _prlimit_argv(prlimit: str, limits: Limits) -> list[str]:
    return [
        prlimit,
        f"--nproc={limits.processes}",
        f"--fsize={limits.file_bytes}",
        # SIGXCPU at the limit (the shell says "CPU time limit exceeded"), SIGKILL a second later.
        f"--cpu={limits.cpu_seconds}:{limits.cpu_seconds + 1}",
        f"--as={limits.memory_bytes}",
        "--core=0",  # no core dumps: they would land in the workspace, or go to a host helper
        "--",
    ]


def _command_env(home: str, extra: Mapping[str, str]) -> dict[str, str]:
    """Built from scratch: nothing of shellctl's own environment (tokens, keys) reaches commands.
    `extra` comes first, so the sandbox's own variables win over it."""
    return {**extra, "PATH": _PATH, "HOME": home, "LANG": "C.UTF-8", "TERM": "dumb"}


def _memory_file(content: bytes) -> int:
    """A file descriptor for bwrap to read (`--args`, `--ro-bind-data`): nothing on disk."""
    fd = os.memfd_create("bwrap-data")
    os.write(fd, content)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd
