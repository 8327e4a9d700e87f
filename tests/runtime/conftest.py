"""Real processes for the runtime tests (reference model, shellctl, runtime; one set per session)
and a scripted provider in this process."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from support.replay.server import BackgroundServer
from tests.runtime.runtime_testing import ScriptedProvider
from tests.runtime.service_process import PYTHON, Service, agent_builder, service, workspaces_folder

SHELL_TIMEOUT_S = 1
SHELLCTL_TOKEN = "runtime-tests-shellctl-token"  # shellctl refuses the runtime without it


@pytest.fixture(scope="session")
def runtime_logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("runtime-services")


@pytest.fixture(scope="session")
def reference_model_url(runtime_logs: Path) -> Iterator[str]:
    command = [PYTHON, "-m", "support.replay.reference_model", "--port", "0"]
    with service(command, "REFERENCE_MODEL_READY", runtime_logs / "reference-model.log") as process:
        yield process.url


@pytest.fixture(scope="session")
def shellctl_url(runtime_logs: Path) -> Iterator[str]:
    env = {"AGENT_BUILDER_SHELLCTL_TOKEN": SHELLCTL_TOKEN}
    with workspaces_folder() as workspaces:
        command = agent_builder("shellctl", "--port", "0", "--workspaces", str(workspaces))
        with service(command, "AGENT_BUILDER_READY", runtime_logs / "shellctl.log", env=env) as process:
            yield process.url


@pytest.fixture(scope="session")
def runtime(runtime_logs: Path) -> Iterator[Service]:
    command = agent_builder(
        "runtime", "--port", "0", "--retry-budget", "2", "--shell-timeout", str(SHELL_TIMEOUT_S)
    )
    env = {"AGENT_BUILDER_RUNTIME_RETRY_DELAY_MS": "10", "AGENT_BUILDER_SHELLCTL_TOKEN": SHELLCTL_TOKEN}
    with service(command, "AGENT_BUILDER_READY", runtime_logs / "runtime.log", env=env) as process:
        yield process


@pytest.fixture
def client(runtime: Service) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=runtime.url, timeout=30) as http:
        yield http


@pytest.fixture(scope="session")
def _scripted_server() -> Iterator[tuple[ScriptedProvider, str]]:
    provider = ScriptedProvider()
    with BackgroundServer(provider.app()) as server:
        yield provider, server.url


@pytest.fixture
def scripted(_scripted_server: tuple[ScriptedProvider, str]) -> ScriptedProvider:
    _scripted_server[0].reset()
    return _scripted_server[0]


@pytest.fixture
def scripted_url(_scripted_server: tuple[ScriptedProvider, str]) -> str:
    return _scripted_server[1]
