"""The product's services (console, runtime, shellctl, the reference model) as real processes on
free ports, started and stopped through support/stack like the lanes start them."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

from support.stack import ListeningSocket, Service, python_module_argv, start_service


@contextmanager
def running(
    argv: list[str],
    ready_prefix: str,
    log: Path,
    env: Mapping[str, str] | None = None,
    listening: ListeningSocket | None = None,
) -> Iterator[Service]:
    """The service `argv` starts, once it printed its ready line; its output goes to `log`. With
    `listening`, it is handed that socket (`argv` names it with `--fd`), whose copy here is closed."""
    fds = [] if listening is None else [listening.fd]
    try:
        service = start_service(
            log.stem, argv, ready_prefix=ready_prefix, log_path=log, env=env, pass_fds=fds
        )
    finally:
        if listening is not None:
            listening.close()
    try:
        yield service
    finally:
        service.stop()


def agent_builder(*args: str) -> list[str]:
    return python_module_argv("agent_builder", *args)


def reference_model(log: Path) -> AbstractContextManager[Service]:
    """The bundled reference model: a deterministic OpenAI-compatible server."""
    argv = python_module_argv("support.replay.reference_model", "--port", "0")
    return running(argv, "REFERENCE_MODEL_READY", log)


@contextmanager
def workspaces_folder() -> Iterator[Path]:
    """A folder for shellctl's workspaces that sandbox users can reach. Run as root, shellctl runs
    each workspace as a uid of its own, which must be able to search every parent folder; pytest's
    temporary folders are private to their user (mode 0700)."""
    with tempfile.TemporaryDirectory(prefix="shellctl-") as folder:
        os.chmod(folder, 0o711)
        yield Path(folder) / "workspaces"
