"""Real services for the seed tests: the record/replay server and embedded consoles, each a
subprocess on port 0 with its own temp database, started the way the orchestrator starts them."""

from __future__ import annotations

import shutil
import socket
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from seed.runner import run_seed
from support.api.console import ConsoleClient, sign_in
from support.replay.cassette import DEFAULT_CASSETTES_DIR
from support.settings import Settings, load_settings
from support.stack import Service, python_module_argv, start_service, wait_healthy

ADMIN_EMAIL = "seed-tests@example.com"
ADMIN_PASSWORD = "seed-tests-admin-PASSWORD-1234"
STABLE_MODEL = "gpt-4o-mini"
DECISION_MODEL = "gpt-4o"
# The seed's own recordings (the speech-to-text check), replayed as in the post-merge lane.
SEED_CASSETTES = Path(__file__).resolve().parents[2] / DEFAULT_CASSETTES_DIR / "seed"


def free_port() -> int:
    """A port nothing listens on (it was free a moment ago)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def make_settings(console_url: str, artifacts: Path, **variables: str) -> Settings:
    environ = {
        "E2E_BASE_URL": console_url,
        "E2E_ADMIN_EMAIL": ADMIN_EMAIL,
        "E2E_ADMIN_PASSWORD": ADMIN_PASSWORD,
        "E2E_ARTIFACTS_DIR": str(artifacts),
        "E2E_SEED_TIMEOUT_S": "30",
        **variables,
    }
    return load_settings(environ, env_file=None)


def console_client(settings: Settings) -> ConsoleClient:
    assert settings.base_url is not None
    return ConsoleClient(settings.base_url, sign_in(settings.base_url, ADMIN_EMAIL, ADMIN_PASSWORD))


def raw_api(settings: Settings) -> httpx.Client:
    """The console API without the typed client: for exact bytes and for routes the suite never uses."""
    assert settings.base_url is not None
    token = sign_in(settings.base_url, ADMIN_EMAIL, ADMIN_PASSWORD)
    headers = {"Authorization": f"Bearer {token}"}
    return httpx.Client(base_url=f"{settings.base_url}/console/api", headers=headers)


@pytest.fixture(scope="session")
def replay_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("replay")
    shutil.copytree(SEED_CASSETTES, folder / "cassettes" / "seed")
    service = start_service(
        "replay",
        python_module_argv(
            "support.replay",
            "serve",
            "--port",
            "0",
            "--cassettes",
            str(folder / "cassettes"),
            "--model",
            STABLE_MODEL,
            "--model",
            DECISION_MODEL,
        ),
        ready_prefix="REPLAY_READY",
        log_path=folder / "replay.log",
    )
    yield service.url
    service.stop()


def _start_console(folder: Path) -> Service:
    service = start_service(
        "console",
        python_module_argv("agent_builder", "console", "--port", "0", "--db", str(folder / "console.db")),
        ready_prefix="AGENT_BUILDER_READY",
        log_path=folder / "console.log",
        env={"AGENT_BUILDER_ADMIN_EMAIL": ADMIN_EMAIL, "AGENT_BUILDER_ADMIN_PASSWORD": ADMIN_PASSWORD},
    )
    wait_healthy(f"{service.url}/healthz")
    return service


@pytest.fixture
def console_url(tmp_path: Path) -> Iterator[str]:
    """A fresh, unseeded console for one test."""
    service = _start_console(tmp_path)
    yield service.url
    service.stop()


@pytest.fixture
def settings_for(tmp_path: Path, replay_url: str) -> Callable[..., Settings]:
    """Settings seeding `console_url` through the session's replay server (override with variables)."""

    def build(console_url: str, **variables: str) -> Settings:
        return make_settings(console_url, tmp_path / "artifacts", E2E_REPLAY_URL=replay_url, **variables)

    return build


@pytest.fixture(scope="module")
def seeded_settings(tmp_path_factory: pytest.TempPathFactory, replay_url: str) -> Iterator[Settings]:
    """One console seeded with the post-merge profile, shared by a module's read-only tests."""
    folder = tmp_path_factory.mktemp("seeded")
    service = _start_console(folder)
    settings = make_settings(service.url, folder / "artifacts", E2E_REPLAY_URL=replay_url)
    report = run_seed(settings, "post-merge")
    assert not report.blocked, report.blocked
    yield settings
    service.stop()
