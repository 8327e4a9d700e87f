"""Runs one prepared command (sandbox.Launch) in its own process group, with a timeout that kills
the whole group, and output capped as it arrives.

In a sandbox the group is bwrap; `--die-with-parent` takes the pid 1 of the command's PID
namespace with it, and when that pid 1 dies the kernel kills every process left in the namespace,
whatever session or group it moved to (setsid, nohup, double forks). Without isolation only the
process group is killed."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from dataclasses import dataclass
from subprocess import DEVNULL, PIPE

from agent_builder.shellctl.sandbox import Launch

OUTPUT_CAP_BYTES = 64 * 1024
# After the command ends, how long to wait for its pipes to close. Only a process that outlived
# the kill (without isolation: one that left the process group) can still hold them.
_PIPE_GRACE_S = 1.0


@dataclass(frozen=True)
class ExecResult:
    exit_code: int | None  # None when timed out; 128 + N when killed by signal N
    stdout: str
    stderr: str
    timed_out: bool
    truncated: bool
    duration_ms: int


class _CommandProtocol(asyncio.SubprocessProtocol):
    """Keeps the first `cap` bytes of each stream and drops the rest as it arrives, so memory stays
    bounded and the command never blocks on a full pipe."""

    def __init__(self, cap: int) -> None:
        self.output = {1: bytearray(), 2: bytearray()}
        self.truncated = False
        self.exited = asyncio.Event()  # the shell itself ended
        self.closed = asyncio.Event()  # ... and every pipe is closed
        self._cap = cap

    def pipe_data_received(self, fd: int, data: bytes) -> None:
        buffer = self.output[fd]
        room = self._cap - len(buffer)
        if len(data) > room:
            self.truncated = True
        buffer += data[: max(room, 0)]

    def process_exited(self) -> None:
        self.exited.set()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()

    def text(self, fd: int) -> str:
        # A cap can split a multi-byte character; `replace` keeps the rest readable.
        return self.output[fd].decode("utf-8", errors="replace")


async def run_command(launch: Launch, timeout_s: float, cap: int = OUTPUT_CAP_BYTES) -> ExecResult:
    started = time.monotonic()
    transport, protocol = await asyncio.get_running_loop().subprocess_exec(
        lambda: _CommandProtocol(cap),
        *launch.argv,
        stdin=DEVNULL,
        stdout=PIPE,
        stderr=PIPE,
        start_new_session=True,  # its own process group, so one signal reaches every child
        **launch.popen_kwargs(),
    )
    try:
        try:
            await asyncio.wait_for(protocol.exited.wait(), timeout_s)
            timed_out = False
        except TimeoutError:
            timed_out = True
        finally:
            # Also on a normal exit: background jobs the command left behind do not outlive it.
            # On cancellation (the client went away) this is the only cleanup there is.
            _kill_group(transport.get_pid())
        try:
            await asyncio.wait_for(protocol.closed.wait(), _PIPE_GRACE_S)
        except TimeoutError:
            pass
    finally:
        transport.close()
    return ExecResult(
        exit_code=None if timed_out else _shell_status(transport.get_returncode()),
        stdout=protocol.text(1),
        stderr=protocol.text(2),
        timed_out=timed_out,
        truncated=protocol.truncated,
        duration_ms=round((time.monotonic() - started) * 1000),
    )


def _shell_status(returncode: int | None) -> int | None:
    """Killed by signal N is 128 + N, as a shell (and bwrap, for the command inside) reports it."""
    return 128 - returncode if returncode is not None and returncode < 0 else returncode


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except ProcessLookupError:
        pass  # the group is already gone
