"""Real processes for the runtime tests (reference model, shellctl, runtime; one set per session).
The scripted provider is the shared `fake_upstream` (tests/conftest.py), which also answers the
console's knowledge retrieval: the runtime is configured with its URL as the console's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from support.stack import Service
from tests.fakes.upstream import UpstreamServer
from tests.product_services import agent_builder, reference_model, running, workspaces_folder

SHELL_TIMEOUT_S = 1
SHELLCTL_TOKEN = "runtime-tests-shellctl-token"  # shellctl refuses the runtime without it
RUNTIME_TOKEN = "runtime-tests-runtime-token"  # the runtime refuses callers without it
AUTHORIZED = {"Authorization": f"Bearer {RUNTIME_TOKEN}"}


@pytest.fixture(scope="session")
def runtime_logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("runtime-services")


@pytest.fixture(scope="session")
def reference_model_url(runtime_logs: Path) -> Iterator[str]:
    with reference_model(runtime_logs / "reference-model.log") as service:
        yield service.url


@pytest.fixture(scope="session")
def shellctl_url(runtime_logs: Path) -> Iterator[str]:
    env = {"AGENT_BUILDER_SHELLCTL_TOKEN": SHELLCTL_TOKEN}
    with workspaces_folder() as workspaces:
        argv = agent_builder("shellctl", "--port", "0", "--workspaces", str(workspaces))
        with running(argv, "AGENT_BUILDER_READY", runtime_logs / "shellctl.log", env=env) as service:
            yield service.url


@pytest.fixture(scope="session")
def runtime(runtime_logs: Path, shellctl_url: str, upstream_server: UpstreamServer) -> Iterator[Service]:
    argv = agent_builder(
        "runtime", "--port", "0", "--retry-budget", "2", "--shell-timeout", str(SHELL_TIMEOUT_S)
    )
    env = {
        "AGENT_BUILDER_RUNTIME_RETRY_DELAY_MS": "10",
        "AGENT_BUILDER_RUNTIME_TOKEN": RUNTIME_TOKEN,
        "AGENT_BUILDER_RUNTIME_INSECURE_NO_TOKEN": "",
        "AGENT_BUILDER_RUNTIME_SHELLCTL_URL": shellctl_url,
        "AGENT_BUILDER_RUNTIME_CONSOLE_URL": upstream_server.current.url,  # the fake's root
        "AGENT_BUILDER_SHELLCTL_TOKEN": SHELLCTL_TOKEN,
    }
    with running(argv, "AGENT_BUILDER_READY", runtime_logs / "runtime.log", env=env) as service:
        yield service


@pytest.fixture(scope="module")
def insecure_runtime(runtime_logs: Path) -> Iterator[Service]:
    """A runtime told to serve without a token, and configured with no shellctl or console."""
    env = {
        "AGENT_BUILDER_RUNTIME_RETRY_DELAY_MS": "10",
        "AGENT_BUILDER_RUNTIME_TOKEN": "",
        "AGENT_BUILDER_RUNTIME_INSECURE_NO_TOKEN": "1",
        "AGENT_BUILDER_RUNTIME_SHELLCTL_URL": "",
        "AGENT_BUILDER_RUNTIME_CONSOLE_URL": "",
        "AGENT_BUILDER_SHELLCTL_TOKEN": SHELLCTL_TOKEN,
    }
    argv = agent_builder("runtime", "--port", "0")
    with running(argv, "AGENT_BUILDER_READY", runtime_logs / "insecure-runtime.log", env=env) as service:
        yield service


@pytest.fixture
def client(runtime: Service) -> Iterator[httpx.Client]:
    """The runtime's client as the console is: with the runtime's token."""
    with httpx.Client(base_url=runtime.url, headers=AUTHORIZED, timeout=30) as http:
        yield http
