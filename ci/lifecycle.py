"""What the orchestrators that start services around a lane (`ci.post_merge`, `ci.deployed`) share:
their exit code for a service that did not start, SIGINT and SIGTERM turned into a teardown, and
the timing of their start-up stages."""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

EXIT_SERVICE_FAILED = 4


class Interrupted(Exception):
    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def interrupt_on_signals() -> None:
    """From now on SIGINT and SIGTERM raise `Interrupted`, so the caller's `finally` tears down."""
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, _interrupt)


def _interrupt(signum: int, frame: FrameType | None) -> None:
    ignore_signals()  # the first signal starts the teardown; another one must not cut it short
    raise Interrupted(signum)


def ignore_signals() -> None:
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, signal.SIG_IGN)


@contextmanager
def stage(stages: dict[str, float], name: str) -> Iterator[None]:
    """Time the block as the start-up stage `name`."""
    started = time.monotonic()
    yield
    stages[name] = time.monotonic() - started
